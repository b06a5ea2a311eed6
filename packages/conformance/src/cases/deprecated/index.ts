import type { ConformanceCase } from '../../case.js';
import allMicroservicesHealthy from './all-microservices-healthy.case.js';
import deploymentIsFullyAvailable from './deployment-is-fully-available.case.js';
import deploymentIsNotFullyAvailable from './deployment-is-not-fully-available.case.js';
import killMicroservice from './kill-microservice.case.js';
import microserviceAvailableAndHealthy from './microservice-available-and-healthy.case.js';
import microserviceIsNotAvailable from './microservice-is-not-available.case.js';
import readMicroservicesLogs from './read-microservices-logs.case.js';
import removeServiceEndpoint from './remove-service-endpoint.case.js';
import scaleMicroservice from './scale-microservice.case.js';
import serviceEndpointIsInitialized from './service-endpoint-is-initialized.case.js';
import startMicroservice from './start-microservice.case.js';

export const deprecatedCases: readonly ConformanceCase[] = [
  killMicroservice,
  removeServiceEndpoint,
  scaleMicroservice,
  startMicroservice,
  allMicroservicesHealthy,
  microserviceAvailableAndHealthy,
  microserviceIsNotAvailable,
  serviceEndpointIsInitialized,
  deploymentIsFullyAvailable,
  deploymentIsNotFullyAvailable,
  readMicroservicesLogs,
];

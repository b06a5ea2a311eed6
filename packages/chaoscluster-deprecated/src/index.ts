import type { AnyActivity } from '@chaoskit/core';
import { allMicroservicesHealthyActivity } from './all-microservices-healthy.js';
import { deploymentIsFullyAvailableActivity } from './deployment-is-fully-available.js';
import { deploymentIsNotFullyAvailableActivity } from './deployment-is-not-fully-available.js';
import { killMicroserviceActivity } from './kill-microservice.js';
import { microserviceAvailableAndHealthyActivity } from './microservice-available-and-healthy.js';
import { microserviceIsNotAvailableActivity } from './microservice-is-not-available.js';
import { readMicroservicesLogsActivity } from './read-microservices-logs.js';
import { removeServiceEndpointActivity } from './remove-service-endpoint.js';
import { scaleMicroserviceActivity } from './scale-microservice.js';
import { serviceEndpointIsInitializedActivity } from './service-endpoint-is-initialized.js';
import { startMicroserviceActivity } from './start-microservice.js';

export * from './all-microservices-healthy.js';
export * from './deployment-is-fully-available.js';
export * from './deployment-is-not-fully-available.js';
export { deprecationMessage, resetDeprecationWarnings } from './deprecation.js';
export * from './kill-microservice.js';
export * from './microservice-available-and-healthy.js';
export * from './microservice-is-not-available.js';
export * from './read-microservices-logs.js';
export * from './remove-service-endpoint.js';
export * from './scale-microservice.js';
export * from './service-endpoint-is-initialized.js';
export * from './start-microservice.js';

/** Every activity of this package, for registries (the runner, discovery, conformance). */
export const activities: readonly AnyActivity[] = [
  killMicroserviceActivity,
  removeServiceEndpointActivity,
  scaleMicroserviceActivity,
  startMicroserviceActivity,
  allMicroservicesHealthyActivity,
  microserviceAvailableAndHealthyActivity,
  microserviceIsNotAvailableActivity,
  serviceEndpointIsInitializedActivity,
  deploymentIsFullyAvailableActivity,
  deploymentIsNotFullyAvailableActivity,
  readMicroservicesLogsActivity,
];

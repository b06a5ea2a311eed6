// The activities of this package: one file each, exported here. The package's `activities`
// list is made from these exports, so adding an activity is adding its file and its line.
export * from './all-microservices-healthy.js';
export * from './deployment-is-fully-available.js';
export * from './deployment-is-not-fully-available.js';
export * from './kill-microservice.js';
export * from './microservice-available-and-healthy.js';
export * from './microservice-is-not-available.js';
export * from './read-microservices-logs.js';
export * from './remove-service-endpoint.js';
export * from './scale-microservice.js';
export * from './service-endpoint-is-initialized.js';
export * from './start-microservice.js';

import type { ConformanceCase } from '../../case.js';
import createClusterCustomObject from './create-cluster-custom-object.case.js';
import createCustomObject from './create-custom-object.case.js';
import deleteClusterCustomObject from './delete-cluster-custom-object.case.js';
import deleteCustomObject from './delete-custom-object.case.js';
import getClusterCustomObject from './get-cluster-custom-object.case.js';
import getCustomObject from './get-custom-object.case.js';
import listClusterCustomObjects from './list-cluster-custom-objects.case.js';
import listCustomObjects from './list-custom-objects.case.js';
import patchClusterCustomObject from './patch-cluster-custom-object.case.js';
import patchCustomObject from './patch-custom-object.case.js';
import replaceClusterCustomObject from './replace-cluster-custom-object.case.js';
import replaceCustomObject from './replace-custom-object.case.js';

export const crdCases: readonly ConformanceCase[] = [
  createCustomObject,
  createClusterCustomObject,
  deleteCustomObject,
  deleteClusterCustomObject,
  patchCustomObject,
  patchClusterCustomObject,
  replaceCustomObject,
  replaceClusterCustomObject,
  getCustomObject,
  getClusterCustomObject,
  listCustomObjects,
  listClusterCustomObjects,
];

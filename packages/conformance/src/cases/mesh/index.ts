import type { ConformanceCase } from '../../case.js';
import addAbortFault from './add-abort-fault.case.js';
import addDelayFault from './add-delay-fault.case.js';
import getVirtualService from './get-virtual-service.case.js';
import removeAbortFault from './remove-abort-fault.case.js';
import removeDelayFault from './remove-delay-fault.case.js';
import setFault from './set-fault.case.js';
import unsetFault from './unset-fault.case.js';

export const meshCases: readonly ConformanceCase[] = [
  setFault,
  addDelayFault,
  addAbortFault,
  unsetFault,
  removeDelayFault,
  removeAbortFault,
  getVirtualService,
];

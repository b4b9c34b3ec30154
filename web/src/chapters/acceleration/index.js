// The Acceleration chapter: the same arithmetic at different speeds (loop order, SIMD,
// fusion). Holds the intro and the matmul experiment; main.js mounts the exercises below.
// Not for: measuring (the lab worker and core do that).

import { paragraphs } from '../intro.js';
import { mountMatmulExperiment } from './matmul-experiment.js';

export default {
  id: 'acceleration',
  title: 'Acceleration',
  mount(container, { bridge }) {
    container.append(
      ...paragraphs('Acceleration: same arithmetic, different speed', [
        'A matrix product does the same 2·N³ floating-point operations however you write the ' +
          'loops, yet the time it takes can differ several times over. Two things decide it: ' +
          'whether the inner loop walks memory in order (so caches and prefetchers can help), ' +
          'and whether one instruction works on four floats at once (SIMD, here WebAssembly ' +
          'simd128).',
        'The experiment runs on your CPU, inside a worker, so the page stays responsive. ' +
          'Numbers depend on this machine and on what else it is doing: close busy tabs for ' +
          'steadier results, and read the warning column before trusting a point.',
        'Still to come in this chapter: a GELU fusion experiment and exercises on reading these curves.',
      ]),
    );
    return mountMatmulExperiment(container.appendChild(document.createElement('div')), { bridge });
  },
};

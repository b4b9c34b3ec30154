// The sparsity sweep in wasm under Node (issue 24's "a sparse kernel (CSR) ... measured speed
// against the dense kernel across densities, with the crossover density found"): core's plan
// of the page's sweep (experimentPlan('optimization-sparsity'): fashion_mlp's layer shapes at
// batch 1 and 64, densities 2% to 100%), each CSR variant and the dense packed matmul timed on
// the same inputs at each density (measureSparseLinear, verified first), and core's
// sparseCrossover naming the density below which sparse is faster; with this bench's longer
// timer. A bench, not a test:
// timings are noisy, so nothing here fails a build.
// Usage: tools/lab build && node --no-experimental-fetch bench/sparse.mjs [--build simd|scalar] [--quick]
import { BUILDS, loadPerflab, loadPerflabTrain } from '../tests/wasm/perflab_module.mjs';

const buildArg = process.argv.indexOf('--build');
const wanted = buildArg > 0 ? process.argv[buildArg + 1] : 'simd';
const build = BUILDS.find((b) => b.flavour === wanted);
if (!build) {
  console.error(`bench/sparse.mjs: --build takes ${BUILDS.map((b) => b.flavour).join(' or ')}, got ${wanted}`);
  process.exit(2);
}
const quick = process.argv.includes('--quick');

const plan = (await loadPerflab(build)).experimentPlan('optimization-sparsity', quick);
const SHAPES = plan.shapes;
const DENSITIES = plan.densities;
// Longer than the page's: a bench line should not move between runs.
const OPTIONS = quick ? plan.options : { warmup: 3, samples: 21, min_sample_ms: 5, max_total_ms: 3000 };

const m = await loadPerflabTrain(build);
console.log(`sparse (CSR) Linear against the dense packed matmul, ${build.flavour} build, Node ${process.version}; timer ${JSON.stringify(OPTIONS)}`);
for (const variant of m.sparseVariants().map((v) => v.name)) {
  for (const s of SHAPES) {
    console.log(`\n${variant}, Linear ${s.in}→${s.out} at batch ${s.batch}`);
    console.log('density   nonzeros   CSR bytes / dense   sparse ms   dense ms   dense / sparse');
    const points = DENSITIES.map((d) => m.measureSparseLinear(variant, s.batch, s.in, s.out, d, OPTIONS));
    for (const p of points) {
      console.log(
        `${`${(100 * p.density).toFixed(0)}%`.padStart(7)}   ${String(p.nnz).padStart(8)}   ${(p.csr_bytes / p.dense_bytes).toFixed(2).padStart(17)}` +
          `   ${p.sparse.median_ms.toPrecision(3).padStart(9)}   ${p.dense.median_ms.toPrecision(3).padStart(8)}   ${`${p.speedup.toFixed(2)}x`.padStart(14)}`,
      );
    }
    console.log(`crossover: ${m.sparseCrossover(points).sentence}`);
  }
}

// The arithmetic behind compare.mjs's "fraction of its own compute roof" for fused GELU
// (issue 14 item 9), apart from the script so that tests/js can check it on hand-computed
// numbers: the roof from the probe's SIMD multiply/add rate and the vector operations the
// fused-simd kernel spends per element, and a measured rate as a fraction of it.
// Not for: timing or probing (compare.mjs does both), or core's FLOP count (see below).

/** float32 lanes in one 128-bit wasm vector. */
export const SIMD_LANES = 4;

/**
 * Vector operations core's detail::GeluVec (core/include/perflab/detail/vmath.hpp) executes
 * per four elements, counted from its operator() with no fused multiply-add (wasm simd128
 * has none, so each fmadd is a multiply and an add): two clamps, five for t (three multiplies
 * and a multiply-add), three for the rounding, seven for 2^f's Padé terms, one shift, four to
 * combine, one divide. Core states the same total in that comment but not as a constant, so it
 * is kept here, by hand; change both together.
 *
 * How it relates to core's kGeluFlopsPerElement = 9 (kernels/elementwise.hpp, docs/MODEL_SPEC.md): core
 * counts the operations the formula asks for (tanh as one), the same for every variant, so
 * the roofline and the profiler agree. This counts what one implementation executes: 23 per
 * 4 elements is 23 single-lane operations per element, where core credits 9. So at this roof
 * the kernel's gflops_per_s in core's count reads 9/23 (about 39%) of the probe's peak, which
 * is why the fraction is taken in elements per second, not in core's GFLOP/s over the peak.
 */
export const GELU_SIMD_VECTOR_OPS_PER_4_ELEMENTS = 23;

const checkRate = (name, value, unit) => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive finite number of ${unit}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`);
  }
};

/**
 * Fused GELU's compute roof on a machine whose probe measured `simd_peak_gflops_per_s` (the
 * probe's multiply/add rate over 4 lanes, so peak / 4 is vector operations per second).
 * Counting the clamps, shift and divide at the multiply/add rate makes the roof optimistic,
 * so a fraction of it is a lower bound of how close the kernel is.
 * @returns {{g_vector_ops_per_s: number, vector_ops_per_element: number, g_elements_per_s: number}}
 */
export function geluComputeRoof(simd_peak_gflops_per_s) {
  checkRate('simd_peak_gflops_per_s', simd_peak_gflops_per_s, 'GFLOP/s');
  const g_vector_ops_per_s = simd_peak_gflops_per_s / SIMD_LANES;
  const vector_ops_per_element = GELU_SIMD_VECTOR_OPS_PER_4_ELEMENTS / SIMD_LANES;
  return { g_vector_ops_per_s, vector_ops_per_element, g_elements_per_s: g_vector_ops_per_s / vector_ops_per_element };
}

/** A measured GELU rate (G elements/s) as a fraction of the roof at `simd_peak_gflops_per_s`. */
export function fractionOfGeluRoof(g_elements_per_s, simd_peak_gflops_per_s) {
  checkRate('g_elements_per_s', g_elements_per_s, 'G elements/s');
  return g_elements_per_s / geluComputeRoof(simd_peak_gflops_per_s).g_elements_per_s;
}

// The numbers the Benchmarking chapter's text quotes, each from core: the timer's defaults
// (timerDefaults), the worked example [1, 2, 3, 4, 5] summarized by core (summarizeSample),
// the comparison's default noise threshold (compareSamples reports the options it used) and
// the distribution experiment's full plan (experimentPlan).
// `factTexts` only formats those answers (and divides two of core's interval widths for the
// t factor); `askCore` asks the lab for them. Not for: any statistic (core computes them).
import { formatInt, formatSig } from '../../ui/format.js';

/** The worked example of the intervals section. */
export const EXAMPLE = Object.freeze([1, 2, 3, 4, 5]);

// 0.02 -> "2%", 0.025 -> "2.5%" (three significant digits, trailing zeros dropped).
const percent = (fraction) => `${Number(formatSig(fraction * 100))}%`;
const interval = ({ low, high }) => `(${low.toFixed(3)}, ${high.toFixed(3)})`;

/**
 * @param {{timer: object, example: object, comparison: object, distribution: object}} core the four answers
 * @returns {Record<string, string>} placeholder name -> text
 */
export function factTexts({ timer, example, comparison, distribution }) {
  const zWidth = example.z_interval.high - example.z_interval.low;
  const tWidth = example.t_interval.high - example.t_interval.low;
  return {
    resolution_multiple: formatInt(timer.resolution_multiple),
    // A duration is two readings, each off by less than a tick.
    sample_error_percent: percent(2 / timer.resolution_multiple),
    bootstrap_resamples: formatInt(example.bootstrap_resamples),
    threshold_percent: percent(comparison.threshold),
    example_mean: formatSig(example.mean, 4),
    example_std: example.std.toFixed(4),
    example_z: interval(example.z_interval),
    example_t: interval(example.t_interval),
    // Both intervals are mean ± factor·s/√n, so their widths are in the ratio t / 1.96.
    t_over_z: (tWidth / zWidth).toFixed(2),
    t_quantile_4: ((1.96 * tWidth) / zWidth).toFixed(3),
    distribution_samples: formatInt(distribution.options.samples),
  };
}

/** Asks core (through the lab worker) for the answers factTexts formats. */
export async function askCore(lab, where) {
  const [timer, example, comparison, distribution] = await Promise.all([
    lab.timerDefaults({ where }),
    lab.summarizeSample([...EXAMPLE], undefined, { where }),
    lab.compareSamples([...EXAMPLE], [...EXAMPLE], undefined, { where }),
    lab.experimentPlan('benchmarking-distribution', false, { where }),
  ]);
  return { timer, example, comparison, distribution };
}

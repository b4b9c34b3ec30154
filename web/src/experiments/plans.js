// Core's plan of an experiment (experimentPlan; core/suite/experiment_plans.hpp lists the ids
// and each plan's fields) as the experiments hold it: asked by their init, kept in `info`,
// read by their pure `plan` and quoted by their texts. Pure apart from the one request.
// Not for: the plans' numbers (core owns them) or what the machine allows at run time.

import { labOf } from '../lab/client.js';

/**
 * Core's plans of experiment `id`: `plan`, the one this page's mode runs (quick under
 * ?quick=1, else full), and both modes' (`fullPlan`, `quickPlan`) for texts that compare them.
 * @returns {Promise<{plan: object, fullPlan: object, quickPlan: object}>}
 */
export async function experimentPlans(bridge, id, quick, where = `${id}-run`) {
  const lab = labOf(bridge);
  const [fullPlan, quickPlan] = await Promise.all([lab.experimentPlan(id, false, { where }), lab.experimentPlan(id, true, { where })]);
  return { plan: quick ? quickPlan : fullPlan, fullPlan, quickPlan };
}

/**
 * The plan a run measures (`info.plan`) with each named field present (a list: non-empty),
 * or an Error saying what core's plan lacked.
 * @param {object|null} info the experiment's init facts
 * @param {string} what the experiment, as the message names it ("matmul sizes")
 * @param {string[]} fields
 */
export function planOf(info, what, fields = []) {
  const plan = info?.plan;
  const isPlan = plan !== null && typeof plan === 'object' && !Array.isArray(plan);
  const missing = isPlan ? fields.filter((f) => plan[f] === undefined || (Array.isArray(plan[f]) && plan[f].length === 0)) : [];
  if (!isPlan || missing.length > 0) {
    throw new Error(`the lab worker gave no plan of ${what}${missing.length ? ` (no ${missing.join(', ')})` : ''}, so there is nothing to measure`);
  }
  return plan;
}

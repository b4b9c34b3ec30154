// "Try it" for the arithmetic-intensity section: the student enters a kernel's FLOPs and
// bytes (and optionally its measured GFLOP/s); core's rooflinePoint places it against this
// machine's probed roofs (intensity, attainable bound, ridge, verdict).
// Not for: any of that arithmetic (core does it: labOf(bridge).rooflinePoint).

import { h } from '../../ui/dom.js';
import { formatSig } from '../../ui/format.js';
import { labOf } from '../../lab/client.js';
import { machineProbeStore } from '../../state/machine-probe.js';
import { probeLabel } from '../../ui/probe-line.js';

const ID = 'acceleration-intensity';

// An example to start from: a 256×256 matmul (the student is meant to change it).
const FIELDS = [
  { key: 'flops', label: 'FLOPs', value: '33554432' },
  { key: 'bytes', label: 'bytes moved', value: '786432' },
  { key: 'measured_gflops_per_s', label: 'measured GFLOP/s (0 if not measured)', value: '0' },
];

/** @returns {{element: HTMLElement, place: () => Promise<void>}} */
export function mountIntensityCalculator(container, { bridge }) {
  const inputs = Object.fromEntries(
    FIELDS.map((f) => [
      f.key,
      h('input', { id: `${ID}-${f.key}`, type: 'text', inputmode: 'decimal', value: f.value, size: '12' }),
    ]),
  );
  const button = h('button', { type: 'button', class: 'primary', 'data-action': 'place', text: 'Place it' });
  const errorBox = h('p', { class: 'error', role: 'alert', 'data-role': 'error' });
  errorBox.hidden = true;
  const out = h('dl', { class: 'probe-figures', 'data-role': 'placement' });
  const element = h(
    'div',
    { class: 'experiment calculator', 'data-experiment': ID },
    h(
      'div',
      { class: 'controls' },
      ...FIELDS.map((f) =>
        h('span', { class: 'field' }, h('label', { for: `${ID}-${f.key}`, text: `${f.label} ` }), inputs[f.key]),
      ),
      button,
    ),
    errorBox,
    out,
  );
  container.append(element);

  const probes = machineProbeStore(bridge);
  // A Re-probe anywhere on the page places the shown kernel again, against the new roofs.
  probes.subscribe(() => {
    if (out.childNodes.length > 0) place();
  });

  async function place() {
    errorBox.hidden = true;
    button.disabled = true;
    try {
      const entry = await probes.current({ where: `${ID}-place` });
      const probe = entry.probe;
      const kernel = { name: 'your kernel' };
      // Number('') is 0 and Number('x') is NaN: core's checks name the field and what is allowed.
      for (const f of FIELDS) kernel[f.key] = Number(inputs[f.key].value.trim());
      const roofs = { peak_gflops_per_s: probe.peak_gflops_per_s, bandwidth_gb_per_s: probe.bandwidth_gb_per_s };
      const p = await labOf(bridge).rooflinePoint(kernel, roofs, { where: `${ID}-place` });
      const items = [
        ['intensity', `${formatSig(p.intensity)} FLOP/byte`],
        ['ridge point of this machine', `${formatSig(p.ridge_flops_per_byte)} FLOP/byte`],
        ['attainable', `${formatSig(p.attainable_gflops_per_s)} GFLOP/s`],
        ['bound', p.bound],
        ['verdict', p.verdict],
        ['judged against the machine', probeLabel(entry)],
      ];
      out.replaceChildren(...items.flatMap(([t, v]) => [h('dt', { text: t }), h('dd', { text: v })]));
    } catch (err) {
      errorBox.textContent = `Error: ${err.message}`;
      errorBox.hidden = false;
    } finally {
      button.disabled = false;
    }
  }
  button.addEventListener('click', place);
  return { element, place };
}

// The Acceleration chapter's explanations, written for this lab: SIMD, the memory
// hierarchy, blocking, fusion, arithmetic intensity, the roofline and parallelism (threads,
// Amdahl's law, shared bandwidth, false sharing, FMA), short and with the formulas the
// experiments and exercises use. HTML strings (ours, so <code> is safe).
// Pure data: index.js puts each section's experiment after its text.
// Not for: numbers of this machine (the experiments measure them).

export const INTRO = [
  'A matrix product does the same 2·N³ floating-point operations however its loops are ' +
    'written, yet the time can differ tenfold. Three things decide it on one core: how many numbers one ' +
    'instruction works on (SIMD), where the operands come from (the memory hierarchy), and ' +
    'how many bytes each operation needs (arithmetic intensity); the last section adds the other ' +
    'cores and the fused multiply-add. Each section below explains ' +
    'one of them and ends in an experiment that measures it on your CPU, in a worker, so the ' +
    'page stays responsive.',
  'Numbers depend on this machine and on what else it is doing: close busy tabs for steadier ' +
    'results, and read the warning column before trusting a point.',
];

export const SECTIONS = Object.freeze([
  {
    id: 'simd',
    title: 'SIMD: four floats per instruction',
    paragraphs: [
      'WebAssembly’s SIMD (<code>simd128</code>) has 128-bit registers: four float32 lanes. ' +
        'One <code>f32x4.mul</code> does four multiplies, so a loop that keeps the arithmetic ' +
        'units busy can run up to <b>4×</b> faster than its scalar twin: ' +
        '<code>speed-up ≤ vector width = 128 bits / 32 bits = 4</code>.',
      'There is no fused multiply-add in simd128: <code>a·b + c</code> is an ' +
        '<code>f32x4.mul</code> then an <code>f32x4.add</code>, two instructions and two ' +
        'roundings, because an FMA rounds once and gives different results from a CPU without ' +
        'one (the later relaxed-SIMD proposal adds it, results allowed to differ; the last ' +
        'section measures it). The peak of these kernels is therefore <code>4 lanes × 2 FLOPs × multiply-adds issued per ' +
        'cycle × clock rate</code>, counting the pair as two FLOPs. (Native code built with ' +
        '<code>-mfma</code> could issue the pair as one instruction, and AVX registers hold 8 ' +
        'lanes; the lab’s native build sticks to SSE2, 4 lanes and no FMA, so the native CLI ' +
        'runs the same kernels as this page.)',
      'The matmul variants below go from scalar loops to a register-blocked micro-kernel that ' +
        'keeps a 2×16 tile of the output in vector registers. Run them, then run the same C++ ' +
        'compiled without SIMD.',
    ],
  },
  {
    id: 'memory',
    title: 'The memory hierarchy',
    paragraphs: [
      'A core reads from small, fast caches backed by larger, slower ones: L1 (tens of KiB, a ' +
        'few cycles), L2 (hundreds of KiB to a few MiB), a last-level cache shared by the cores ' +
        '(several MiB), then DRAM (GiBs, ~100 ns away). Data moves in 64-byte lines, so reading ' +
        'memory in order uses every byte fetched; striding across rows wastes most of each line.',
      'A loop that does little arithmetic per byte runs at the bandwidth of the level its ' +
        'working set fits in: <code>time ≈ bytes moved / bandwidth of that level</code>. The ' +
        'sweep below reads working sets from {{cache_sweep_from}} to {{cache_sweep_to}}; each plateau is a cache level.',
    ],
  },
  {
    id: 'blocking',
    title: 'Blocking: reuse data while it is in cache',
    paragraphs: [
      'The ideal N×N matmul moves <code>12·N²</code> bytes (read a and b, write out, 4 bytes ' +
        'each), but the naive loops stream a whole column of b for every output element: once ' +
        'b outgrows the cache, each of the N³ multiply-adds fetches its operand from memory.',
      'Blocking computes out in tiles. With square T×T tiles that fit in cache, every loaded ' +
        'value is reused T times before it is evicted, so the traffic falls from about ' +
        '<code>4·N³</code> bytes towards <code>8·N³ / T</code>: a bigger tile saves more, until ' +
        'the three tiles, <code>4·(m·k + k·n + m·n)</code> bytes, no longer fit. Pick tile ' +
        'sizes and see where that happens on your machine; then see what the same idea does ' +
        'for a whole Linear layer.',
    ],
  },
  {
    id: 'convolution',
    title: 'Convolution as a matrix product: im2col',
    paragraphs: [
      'A convolution slides a k×k kernel over the image: output (f, y, x) sums the ' +
        '<code>C·k·k</code> products of filter f with the patch under it, ' +
        '<code>2·F·Ho·Wo·C·k²</code> FLOPs in all. Written as seven nested loops, the inner ones are ' +
        'short (k is 3 or 7) and jump between image rows, so they vectorize badly.',
      'im2col copies every patch into one column of a <code>(C·k·k) × (Ho·Wo)</code> matrix; the ' +
        'convolution is then one matrix product, weights <code>(F, C·k·k)</code> times that matrix, ' +
        'and runs on the tuned, vectorized matmul of the sections above. The price is memory: each ' +
        'pixel is copied once per patch that reads it, so with stride 1 the unfolded matrix is about ' +
        '<code>k²</code> times the image (9× for 3×3, 49× for 7×7), allocated and written before the ' +
        'first multiply. Which wins depends on the sizes: measure both.',
    ],
  },
  {
    id: 'fusion',
    title: 'Fusion: fewer passes over memory',
    paragraphs: [
      'GELU (tanh form) is <code>0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))</code>, 9 FLOPs per ' +
        'element. Written as a NumPy-style expression it runs one pass per operation, each ' +
        'reading its inputs and writing a new temporary array: six one-input passes ' +
        '(8 bytes per element: read 4, write 4) and two two-input passes (12 bytes), ' +
        '<code>6·8 + 2·12 = 72</code> bytes per element.',
      'Fused, one loop reads x once and writes the result once: <code>8</code> bytes per ' +
        'element, <b>9× less traffic</b>. Less traffic saves time only when the traffic is what ' +
        'the loop waits for. GELU also computes a tanh per element, and if that arithmetic takes ' +
        'longer than moving the bytes, fusion saves little while SIMD, which speeds up the ' +
        'arithmetic, saves more. The experiment shows which of the two limits GELU on your machine.',
    ],
  },
  {
    id: 'intensity',
    title: 'Arithmetic intensity',
    paragraphs: [
      '<code>intensity = FLOPs / bytes moved</code> (FLOP/byte), counting the ideal traffic: ' +
        'each operand read once, each output written once, 4 bytes per float.',
      'Square matmul: <code>2N³ / (4·3N²) = N/6</code> FLOP/byte, so it grows with N ' +
        '(10.7 at N = 64, 171 at N = 1024). Element-wise add: <code>n / (12·n) = 1/12</code>, ' +
        'whatever n. Fused GELU: <code>9/8</code>; unfused: <code>9/72 = 1/8</code>.',
      'Try it: enter a kernel’s FLOPs and bytes (and, if you measured it, its GFLOP/s); core ' +
        'places it against this machine’s probed roofs.',
    ],
  },
  {
    id: 'roofline',
    title: 'The roofline',
    paragraphs: [
      'A kernel cannot beat the arithmetic peak, nor move data faster than the memory ' +
        'bandwidth allows, which caps it at <code>intensity × bandwidth</code>. So ' +
        '<code>attainable = min(peak, intensity × bandwidth)</code>. The two roofs meet at the ' +
        '<b>ridge point</b> <code>ridge = peak / bandwidth</code> (FLOP/byte): below it a ' +
        'kernel is memory-bound (faster memory or fewer bytes help, more SIMD does not), ' +
        'above it compute-bound (vectors and better instruction use help).',
      'Example: peak 40 GFLOP/s, bandwidth 10 GB/s, ridge 4 FLOP/byte. Add (1/12) can reach ' +
        'at most 0.83 GFLOP/s; matmul at N = 64 (10.7) is above the ridge, bounded by the 40. ' +
        'Below: your machine’s roofs, every lab kernel placed on them, and your native numbers.',
    ],
  },
  {
    id: 'parallelism',
    title: 'Parallelism: every core, and the fused multiply-add',
    paragraphs: [
      'Everything above ran on one core. The kernel engine runs the packed matmul and the fused GELU ' +
        'on several threads: Web Workers that share one WebAssembly memory, which a browser allows only ' +
        'on a cross-origin isolated page (the server’s COOP and COEP headers); elsewhere it runs one ' +
        'thread and says why. The lab’s worker is thread 0; the others wait on a shared word and are ' +
        'woken for each call, so a call costs no thread start. It uses one thread per core the browser ' +
        'reports, up to a cap core sets; the experiment below says how many this page may use, and why.',
      '<b>Work division.</b> Each thread gets a band of the output and never writes another’s. The ' +
        'matmul gives each thread whole strips of out’s rows, the micro-kernel’s height, the first threads one ' +
        'strip more when they do not divide evenly; each thread packs its own copy of b, a little redundant ' +
        'work that spares a wait for the others. GELU gives each thread whole 64-byte chunks of the ' +
        'elements (16 floats), so no two threads write one cache line.',
      '<b>False sharing.</b> Caches keep lines, not floats. When two cores write different floats of ' +
        'one 64-byte line, each write takes the line away from the other core’s cache, and the line ' +
        'travels back and forth although no value is shared: the threads can run slower than one. Bands ' +
        'in whole lines avoid it.',
      '<b>Amdahl’s law.</b> If a fraction s of one thread’s time cannot be split (waking the threads, ' +
        'waiting for the slowest, packing b in every thread), p threads take ' +
        '<code>T(p) = T(1)·(s + (1 − s)/p)</code>, so the speedup is ' +
        '<code>S(p) = T(1)/T(p) = 1 / (s + (1 − s)/p)</code>, which never passes <code>1/s</code> however ' +
        'many threads (s = 5% caps it at 20×). Efficiency is <code>E = S/p</code>. Turned around, one ' +
        'measured speedup gives the serial fraction it implies, the Karp-Flatt metric ' +
        '<code>e = (1/S − 1/p) / (1 − 1/p)</code>; an e that grows with p means a cost that grows with ' +
        'the threads (waiting, shared bandwidth), not a fixed serial part.',
      '<b>Memory bandwidth is shared.</b> Each core has its own registers, L1 and L2, but the cores ' +
        'share the last-level cache and the DRAM bus. The matmul at N = {{scaling_matmul_n}} is compute-bound ' +
        '(intensity N/6, far above the ridge): each core works from its own caches, so p cores can come close to p× the rate. ' +
        'Fused GELU (9/8 FLOP per byte) over {{scaling_gelu_elements}} elements ({{scaling_gelu_bytes}} read ' +
        'and written per call, more than a laptop’s last-level cache) streams from DRAM. One core alone ' +
        'often cannot draw the whole bus, so the first threads may still help; once the cores together ' +
        'draw its bandwidth, more threads only wait longer for it. The machine probe measures ' +
        'both the one-core and the all-core memory bandwidth (the roofline’s memory roofs): a ' +
        'bandwidth-bound kernel can speed up by at most their ratio, whatever Amdahl says.',
      '<b>FMA.</b> A fused multiply-add computes <code>a·b + c</code> in one instruction with one ' +
        'rounding, counted as two FLOPs. WebAssembly’s relaxed SIMD adds <code>f32x4.relaxed_madd</code>: ' +
        '“relaxed” because a CPU without FMA may compute it as a multiply then an add, so results may ' +
        'differ in the last bits between machines (core’s check allows for that). Where the multiplies ' +
        'and adds were two instructions, the same loop issues half as many arithmetic instructions, and a chain of dependent ' +
        'multiply-adds waits for one instruction’s latency per step instead of two: that is why the ' +
        'probe’s FMA peak, where the browser has FMA, lies above its multiply-add peak, and why a compute-bound kernel like the packed ' +
        'matmul gains while a memory-bound one like GELU does not.',
    ],
    run:
      'Try it: run the thread scaling with the matmul, then with GELU, and compare the fitted serial ' +
      'fractions; then run FMA against multiply-add.',
  },
]);

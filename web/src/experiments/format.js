// The number formats live in ui/format.js (charts use them too, without the experiment
// framework); spec columns and the chapters' data modules name them from here.
export * from '../ui/format.js';

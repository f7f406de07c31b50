// The experiment the export tests run and export, in the view (export-view.test.ts) and in
// Chromium (tests/e2e/export.test.ts): one instance, two solvers, three seeds (6 runs), a small
// budget, and a description the report shows.
export const SMALL = {
  name: 'small',
  description: 'random against NSGA-II',
  instances: [{ name: 'mo2-n24', track: 'mo2', n: 24 }],
  solvers: [{ name: 'random' }, { name: 'nsga2', params: { populationSize: 20 } }],
  seeds: [1, 2, 3],
  budget: { evaluations: 600 },
};

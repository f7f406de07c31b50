// echarts-gl ships no types; the two installers the explorer registers (charts/echarts.ts).
declare module 'echarts-gl/lib/chart/scatter3D/install' {
  export const install: Parameters<typeof import('echarts/core').use>[0];
}
declare module 'echarts-gl/lib/component/grid3D/install' {
  export const install: Parameters<typeof import('echarts/core').use>[0];
}

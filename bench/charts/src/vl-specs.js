// Vega-Lite specs without data: each chart reads a named dataset that the page fills in.
const S = 'https://vega.github.io/schema/vega-lite/v5.json'; // an identifier only, never fetched
export const months = {
  $schema: S, description: 'Backlinks and referring domains per month, with new and lost links',
  title: 'Backlinks and referring domains per month', width: 720, height: 240, data: { name: 'months' },
  encoding: { x: { field: 'month', type: 'ordinal', title: null } },
  layer: [
    { transform: [{ calculate: '-datum.lostLinks', as: 'lost' }, { fold: ['newLinks', 'lost'], as: ['kind', 'n'] }],
      mark: { type: 'bar', opacity: 0.6, width: { band: 0.6 } },
      encoding: { y: { field: 'n', type: 'quantitative', title: 'new / lost', axis: { orient: 'right' } },
        color: { field: 'kind', type: 'nominal', scale: { domain: ['newLinks', 'lost'], range: ['#3ca951', '#ff725c'] }, legend: { title: null } } } },
    { transform: [{ fold: ['backlinks', 'refdomains'], as: ['series', 'value'] }],
      mark: 'line',
      encoding: { y: { field: 'value', type: 'quantitative', title: 'backlinks / domains' },
        stroke: { field: 'series', type: 'nominal', scale: { range: ['#4269d0', '#efb118'] }, legend: { title: null } } } },
  ],
  resolve: { scale: { y: 'independent', color: 'independent' } },
};
export const hist = {
  $schema: S, description: 'Authority score profile: backlinks per score 0 to 100',
  title: 'Authority score profile', width: 720, height: 240, data: { name: 'hist' },
  transform: [{ calculate: 'datum.score + 1', as: 'score2' }],
  mark: { type: 'bar', color: '#4269d0' },
  encoding: { x: { field: 'score', type: 'quantitative', bin: { binned: true, step: 1 }, scale: { domain: [0, 101] }, title: 'score' },
    x2: { field: 'score2' }, y: { field: 'count', type: 'quantitative', title: 'backlinks' } },
};
export const anchors = {
  $schema: S, description: 'Top 20 anchors by backlinks', title: 'Top anchors', width: 640, height: 380, data: { name: 'anchors' },
  mark: { type: 'bar', color: '#4269d0' },
  encoding: { y: { field: 'anchor', type: 'nominal', sort: '-x', title: null }, x: { field: 'count', type: 'quantitative', title: 'backlinks' } },
};
export const pts = {
  $schema: S, description: '1,000 points', title: '1,000 points', width: 720, height: 240, data: { name: 'pts' },
  mark: { type: 'line', color: '#4269d0', strokeWidth: 1 },
  encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative', scale: { zero: false } } },
};

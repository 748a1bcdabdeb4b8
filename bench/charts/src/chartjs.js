// Chart.js: canvas; only the controllers/elements/scales/plugins used are registered (tree-shaken).
import { Chart, LineController, BarController, LineElement, BarElement, PointElement,
  LinearScale, CategoryScale, Legend, Title, Tooltip } from 'chart.js';
Chart.register(LineController, BarController, LineElement, BarElement, PointElement,
  LinearScale, CategoryScale, Legend, Title, Tooltip);

const base = { animation: false, responsive: true, maintainAspectRatio: false };
function canvasIn(el, label) {
  const c = document.createElement('canvas');
  c.setAttribute('role', 'img'); c.setAttribute('aria-label', label);
  el.appendChild(c); return c;
}

export function drawMonths(el, months) {
  const title = 'Backlinks and referring domains per month';
  return new Chart(canvasIn(el, title), {
    data: {
      labels: months.map(m => m.month),
      datasets: [
        { type: 'line', label: 'backlinks', data: months.map(m => m.backlinks), yAxisID: 'y', borderColor: '#4269d0', pointRadius: 0 },
        { type: 'line', label: 'referring domains', data: months.map(m => m.refdomains), yAxisID: 'y', borderColor: '#efb118', pointRadius: 0 },
        { type: 'bar', label: 'new', data: months.map(m => m.newLinks), yAxisID: 'n', backgroundColor: '#3ca951aa', stack: 's' },
        { type: 'bar', label: 'lost', data: months.map(m => -m.lostLinks), yAxisID: 'n', backgroundColor: '#ff725caa', stack: 's' },
      ],
    },
    options: { ...base, plugins: { title: { display: true, text: title } },
      scales: { x: { stacked: true }, y: { position: 'left', title: { display: true, text: 'backlinks / domains' } },
        n: { position: 'right', stacked: true, grid: { drawOnChartArea: false }, title: { display: true, text: 'new / lost' } } } },
  });
}

export function drawHist(el, hist) {
  const title = 'Authority score profile';
  return new Chart(canvasIn(el, title), {
    type: 'bar',
    data: { labels: hist.map(h => h.score), datasets: [{ label: 'backlinks', data: hist.map(h => h.count), backgroundColor: '#4269d0', categoryPercentage: 1, barPercentage: 0.9 }] },
    options: { ...base, plugins: { title: { display: true, text: title }, legend: { display: false } },
      scales: { x: { title: { display: true, text: 'score' } }, y: { title: { display: true, text: 'backlinks' } } } },
  });
}

export function drawAnchors(el, anchors) {
  const title = 'Top anchors';
  return new Chart(canvasIn(el, title), {
    type: 'bar',
    data: { labels: anchors.map(a => a.anchor), datasets: [{ label: 'backlinks', data: anchors.map(a => a.count), backgroundColor: '#4269d0' }] },
    options: { ...base, indexAxis: 'y', plugins: { title: { display: true, text: title }, legend: { display: false } },
      scales: { y: { ticks: { autoSkip: false } } } },
  });
}

export function draw1000(el, points) {
  const title = '1,000 points';
  return new Chart(canvasIn(el, title), {
    type: 'line',
    data: { datasets: [{ label: 'y', data: points, borderColor: '#4269d0', borderWidth: 1, pointRadius: 0 }] },
    options: { ...base, parsing: false, normalized: true, plugins: { title: { display: true, text: title }, legend: { display: false } },
      scales: { x: { type: 'linear' } } },
  });
}

export function redraw1000(chart, points) { chart.data.datasets[0].data = points; chart.update('none'); return chart; }

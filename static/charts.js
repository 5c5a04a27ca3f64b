// Lexical's charts: draws the stats page's chart placeholders ([data-chart], built by
// app/ui/stats_view.py) with uPlot, vendored and pinned like the runtime (docs/decisions/012).
// Nothing here loads at startup: app/browser/charts.py imports this module when the stats page
// opens, and uPlot with its stylesheet loads on the first draw. The placeholder's JSON names
// its colours as CSS custom properties, so the charts follow the theme: they are drawn again
// when the page switches theme (documentElement's data-theme) or a chart's width changes;
// each drawn placeholder's data-drawn-theme says which theme's colours it shows.
// The figures are also a table beside each chart, so a chart that cannot be drawn loses nothing.

const HEIGHT = 220;
const Y_AXIS = 54; // the value axis' width, in CSS pixels
const WHOLE_STEPS = [1, 10, 100, 1e3, 1e4, 1e5, 1e6].flatMap((p) => [p, 2 * p, 5 * p]);
// Placeholder element -> { plot, data, width }; plot is null while it has no width to draw in
// (hidden, or not laid out yet), so that a resize draws it.
const drawn = new Map();
let library = null; // a promise of uPlot, once asked for
let resizes = null; // one ResizeObserver for every placeholder, once drawing began
let pending = 0; // the animation frame a redraw waits for

function loadLibrary() {
  if (library === null) {
    const sheet = document.createElement("link");
    sheet.rel = "stylesheet";
    sheet.href = new URL("./vendor/uplot/uPlot.min.css", import.meta.url).href;
    const styled = new Promise((resolve) => {
      sheet.addEventListener("load", resolve, { once: true });
      sheet.addEventListener("error", resolve, { once: true }); // draw unstyled rather than never
    });
    document.head.append(sheet);
    const code = import("./vendor/uplot/uPlot.esm.js").then((module) => module.default);
    library = Promise.all([code, styled]).then(([uPlot]) => uPlot);
    library.catch(() => { library = null; }); // a failed load (offline, not cached) is retried
  }
  return library;
}

function palette(element) {
  const style = getComputedStyle(element);
  const colour = (name) => style.getPropertyValue(name).trim() || style.color;
  return {
    colour,
    text: colour("--muted"),
    grid: colour("--border"),
    panel: colour("--panel"),
    font: `12px ${style.fontFamily}`,
  };
}

function formatNumber(value) {
  return Math.abs(value) >= 10_000 ? `${Math.round(value / 1000)}k` : `${+value.toFixed(1)}`;
}

// Which labels fit under the bars: every one when there is room, else every k-th.
function labelSplits(count, width) {
  const step = Math.max(1, Math.ceil(count / Math.max(1, Math.floor(width / 64))));
  const splits = [];
  for (let i = 0; i < count; i += step) splits.push(i);
  return splits;
}

function shorten(label, room) {
  const chars = Math.max(4, Math.floor(room / 7));
  return label.length > chars ? `${label.slice(0, chars - 1)}…` : label;
}

// uPlot draws bars from zero to a value; a stacked segment runs from the sum of the series
// below it (y0) to that sum plus its own value (y1).
function stackedSeries(uPlot, spec, theme) {
  let below = spec.labels.map(() => 0);
  return spec.series.map((s) => {
    const y0 = below;
    const y1 = y0.map((base, i) => base + s.values[i]);
    below = y1;
    return {
      data: y1,
      options: {
        label: s.name,
        fill: theme.colour(s.color),
        stroke: theme.panel, // a hairline between segments whose colours are close
        width: 1,
        paths: uPlot.paths.bars({
          size: [0.7, 48],
          disp: { y0: { unit: 1, values: () => y0 }, y1: { unit: 1, values: () => y1 } },
        }),
        points: { show: false },
      },
    };
  });
}

function plainSeries(uPlot, spec, theme) {
  const bars = spec.series.filter((s) => !s.marker).length;
  return spec.series.map((s) => {
    if (s.marker) {
      // A target (the desired retention): a ring over each bar rather than a bar of its own.
      return {
        data: s.values,
        options: {
          label: s.name,
          stroke: theme.colour(s.color),
          paths: () => null,
          points: {
            show: true,
            size: 11,
            width: 2.5,
            stroke: theme.colour(s.color),
            fill: theme.panel,
          },
        },
      };
    }
    const colours = s.colors ? s.colors.map((name) => theme.colour(name)) : null;
    return {
      data: s.values,
      options: {
        label: s.name,
        fill: theme.colour(s.color),
        width: 0,
        paths: uPlot.paths.bars({
          size: [bars > 1 ? 0.45 : 0.7, 48],
          ...(colours ? { disp: { fill: { unit: 3, values: () => colours } } } : {}),
        }),
        points: { show: false },
      },
    };
  });
}

function chartOptions(uPlot, spec, width) {
  const theme = palette(document.documentElement);
  const stacked = spec.kind === "stacked";
  const series = (stacked ? stackedSeries : plainSeries)(uPlot, spec, theme);
  const top = Math.max(1, ...series.flatMap((s) => s.data));
  const count = spec.labels.length;
  const splits = labelSplits(count, width - Y_AXIS);
  const room = ((width - Y_AXIS) / Math.max(1, count)) * (splits.length > 1 ? splits[1] : count);
  return {
    data: [spec.labels.map((_, i) => i), ...series.map((s) => s.data)],
    options: {
      width,
      height: HEIGHT,
      legend: { show: false }, // the page shows its own legend and table
      cursor: { show: false },
      select: { show: false },
      scales: {
        x: { time: false, range: [-0.5, count - 0.5] },
        y: { range: spec.unit === "%" ? [0, 100] : [0, top * 1.1] },
      },
      axes: [
        {
          stroke: theme.text,
          font: theme.font,
          grid: { show: false },
          ticks: { stroke: theme.grid, size: 4 },
          splits: () => splits,
          values: (u, at) => at.map((i) => shorten(spec.labels[i] ?? "", room)),
          size: 30,
        },
        {
          stroke: theme.text,
          font: theme.font,
          grid: { stroke: theme.grid, width: 1 },
          ticks: { show: false },
          values: (u, splits) => splits.map((v) => formatNumber(v) + spec.unit),
          incrs: WHOLE_STEPS, // counts of cards and reviews: never a tick at 0.5
          size: Y_AXIS,
        },
      ],
      series: [{}, ...series.map((s) => s.options)],
    },
  };
}

function draw(uPlot, element, force) {
  const width = Math.floor(element.clientWidth);
  const known = drawn.get(element);
  if (!force && known && known.data === element.dataset.chart && known.width === width) return;
  known?.plot?.destroy();
  drawn.set(element, { plot: null, data: null, width: 0 });
  let spec;
  try {
    spec = JSON.parse(element.dataset.chart);
  } catch {
    return; // the table beside it still has the figures
  }
  if (width <= 0 || !spec.labels.length) return;
  const { data, options } = chartOptions(uPlot, spec, width);
  const plot = new uPlot(options, data, element);
  plot.root.setAttribute("aria-hidden", "true"); // the placeholder speaks for it (role=img)
  drawn.set(element, { plot, data: element.dataset.chart, width });
  // The theme whose colours it shows: a switch redraws on the next frame, not at once.
  element.dataset.drawnTheme = document.documentElement.dataset.theme ?? "";
}

// Charts whose placeholder left the page (a redraw replaced it) are let go.
function forgetDetached() {
  for (const [element, { plot }] of drawn) {
    if (!element.isConnected) {
      plot?.destroy();
      drawn.delete(element);
      resizes.unobserve(element);
    }
  }
}

function redrawAll(force) {
  cancelAnimationFrame(pending);
  pending = requestAnimationFrame(() => {
    forgetDetached();
    if (library === null) return;
    // A copy of the keys: the map must not change while it is being walked.
    library.then((uPlot) => [...drawn.keys()].forEach((element) => draw(uPlot, element, force)));
  });
}

function watch() {
  if (resizes !== null) return;
  new MutationObserver(() => redrawAll(true)).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ["data-theme"],
  });
  resizes = new ResizeObserver(() => redrawAll(false));
}

export async function drawCharts(root = document) {
  forgetDetached();
  const placeholders = [...root.querySelectorAll("[data-chart]")];
  if (placeholders.length === 0) return;
  const uPlot = await loadLibrary();
  watch();
  for (const element of placeholders) {
    draw(uPlot, element, false);
    resizes.observe(element);
  }
}

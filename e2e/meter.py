"""How a test sees the voice meter's drawing (static/visualiser.js on its canvas)."""

from __future__ import annotations

# The drawing as a person sees it: the height in pixels of each of the 32 bars (the ink in
# the column at each bar's centre), and whether any pixel is drawn at all.
DRAWING = """() => {
  const canvas = document.querySelector(".voice-meter canvas");
  if (!canvas || !canvas.width) return null;
  const { width, height } = canvas;
  const pixels = canvas.getContext("2d").getImageData(0, 0, width, height).data;
  const ink = (x, y) => pixels[(y * width + x) * 4 + 3] > 0;
  const bars = [];
  for (let bar = 0; bar < 32; bar += 1) {
    const x = Math.floor((bar + 0.5) * width / 32);
    let tall = 0;
    for (let y = 0; y < height; y += 1) tall += ink(x, y) ? 1 : 0;
    bars.push(tall);
  }
  return { bars, height, blank: !pixels.some((value, i) => i % 4 === 3 && value > 0) };
}"""
SPEAKING = f"""(previous) => {{
  const drawing = ({DRAWING})();
  // Speech, not the idle row of dots: some bar reaches a quarter of the height.
  if (!drawing || Math.max(...drawing.bars) < drawing.height / 4) return false;
  return previous == null || JSON.stringify(drawing.bars) !== previous;
}}"""

// The page explains its picture as figures do (tests/browser.rs checks what this returns):
// a title with the layer and the step, the colour bar's unit and sides, a legend naming each
// team in its colour, markers in the teams' colours and shapes, the front line in its own
// colour over a faded map, and a chase's last-seen and predicted marks.
(async () => {
  const sb = window.sandbox, out = { ok: false };
  const $ = (id) => document.getElementById(id);
  const text = (id) => $(id).textContent;
  const overlayPixel = (x, y) => {
    const ov = $("overlay"), rect = ov.getBoundingClientRect(), dpr = ov.width / rect.width;
    return Array.from(ov.getContext("2d").getImageData(Math.round((x - rect.left) * dpr), Math.round((y - rect.top) * dpr), 1, 1).data);
  };
  const near = (p, c) => Math.abs(p[0] - c[0]) + Math.abs(p[1] - c[1]) + Math.abs(p[2] - c[2]) <= 24 && p[3] > 200;
  /** Overlay pixels within `r` CSS pixels (a square) of cell (x, y)'s centre moved by `dx`,
   * close to colour c. */
  const countAround = (x, y, r, c, dx = 0) => {
    const ov = $("overlay"), rect = ov.getBoundingClientRect(), dpr = ov.width / rect.width;
    const [cx, cy] = sb.cellToClient(x, y), x0 = Math.round((cx + dx - r - rect.left) * dpr), y0 = Math.round((cy - r - rect.top) * dpr);
    const n = Math.round(2 * r * dpr), d = ov.getContext("2d").getImageData(x0, y0, n, n).data;
    let count = 0;
    for (let i = 0; i < d.length; i += 4) count += near([d[i], d[i + 1], d[i + 2], d[i + 3]], c) ? 1 : 0;
    return count;
  };
  /** The map canvas against the frame: front-line colour exactly on front cells; every other
   * open cell's colour faded (each channel at least 178) when `faint`. */
  const frontCheck = (faint) => {
    const f = sb.state.frame, c = $("map"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    const green = sb.state.lut.frontline;
    let front = 0, wrong = 0, bold = 0;
    for (let i = 0; i < f.flags.length; i++) {
      const px = [d[4 * i], d[4 * i + 1], d[4 * i + 2]], isFront = !(f.flags[i] & 1) && (f.flags[i] & 2) !== 0;
      const green_ = px[0] === green[0] && px[1] === green[1] && px[2] === green[2];
      front += isFront ? 1 : 0;
      wrong += isFront !== green_ ? 1 : 0;
      if (faint && !isFront && !(f.flags[i] & 1) && Math.min(...px) < 178) bold++;
    }
    return { front, wrong, bold };
  };
  try {
    await sb.ready;
    await sb.importToml(`[map]
width = 48
height = 24

[propagation]
kind = "diffuse"
decay = 0.02
momentum = 0.5
steps = 6

[[source]]
team = "red"
color = "#f0483c"
at = [10.5, 12.5]
strength = 8
falloff = "linear"
radius = 30

[[source]]
team = "blue"
at = [38.5, 12.5]
strength = 8
falloff = "linear"
radius = 30
`);
    await sb.setLayer("influence");
    out.title = text("figure-title");
    out.step = text("figure-step");
    await sb.step(1);
    await sb.idle();
    out.stepAfter = text("figure-step");
    out.unit = text("legend-unit");
    out.ticks = [text("legend-lo"), text("legend-mid"), text("legend-hi")];
    out.legend = [...$("team-legend").children].map((li) => ({
      name: li.textContent, team: li.dataset.team || null, color: getComputedStyle(li.querySelector("span")).color,
    }));
    // Markers: the colour at each source's centre, and where that colour lies round it (the shape).
    const r = Math.max(5, Math.min(9, sb.state.scale * 1.5));
    out.markers = [[10, 12], [38, 12]].map(([x, y]) => {
      const [cx, cy] = sb.cellToClient(x, y), centre = overlayPixel(cx, cy), mask = [];
      for (let dy = -r - 2; dy <= r + 2; dy++) {
        for (let dx = -r - 2; dx <= r + 2; dx++) mask.push(near(overlayPixel(cx + dx, cy + dy), centre) ? 1 : 0);
      }
      return { centre, mask };
    });
    out.influenceFront = frontCheck(false);
    out.lastSeenBefore = countAround(24, 12, 4, sb.state.lut.last_seen, -11);
    await sb.setLayer("frontline");
    out.frontlineTitle = text("figure-title");
    out.frontlineUnit = text("legend-unit");
    out.frontlineFront = frontCheck(true);
    await sb.setPropagation({ kind: "flood", last_seen: [24.5, 12.5], velocity: [1, 0], cooling: 0.05, barrier_radius: 0 });
    await sb.step(12);
    await sb.idle();
    await sb.setLayer("heat");
    const f = sb.state.frame, w = sb.state.scene.map.width;
    out.predicted = [f.predicted % w, Math.floor(f.predicted / w)];
    // The ring's left side: the white arrow of the target's heading points right.
    out.lastSeenPixels = countAround(24, 12, 4, sb.state.lut.last_seen, -11);
    out.predictedPixels = countAround(out.predicted[0], out.predicted[1], 14, sb.state.lut.predicted);
    out.chaseLegend = [...$("team-legend").children].map((li) => li.textContent);
    out.chaseStep = text("figure-step");
    out.toast = text("toast");
    out.ok = true;
  } catch (e) {
    out.error = String((e && e.stack) || e);
  }
  return JSON.stringify(out);
})()

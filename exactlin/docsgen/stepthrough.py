"""The step-through figure of an iterative worked example (issue 21, item 4): one frame per update, built on
:mod:`exactlin.render.plot` (:func:`~exactlin.render.plot.step_scenes` drawn by
:func:`~exactlin.render.plot.scene_svg`).

Each frame is precomputed at build time from the run's exact trace (w before and after the update, the sample
tested, whether it was a mistake: checked exactly) and embedded in the page as inline SVG, an overlay on one
shared background (the axes, the samples, the legend) so that a long run's page stays small; "previous" and "next"
buttons and a small inline script switch between them.  Nothing is fetched: the page works from file://.  Without
JavaScript the first frame shows.  Runs without a picture (not two-dimensional, no complete trace,
more than :data:`~exactlin.render.plot.MAX_FRAMES` updates) get no step-through.
"""

from __future__ import annotations

import html

from exactlin.errors import ExactlinError

__all__ = ["stepthrough_html", "stepthrough_md", "SCRIPT"]

#: switches the frames of every step-through on the page (idempotent: each box is set up once)
SCRIPT = """<script>
(function () {
  document.querySelectorAll(".exactlin-steps:not([data-ready])").forEach(function (box) {
    box.setAttribute("data-ready", "1");
    var frames = box.querySelectorAll(".exactlin-frame"), label = box.querySelector(".exactlin-step-label");
    var prev = box.querySelector(".exactlin-prev"), next = box.querySelector(".exactlin-next"), k = 0;
    function show(j) {
      k = Math.max(0, Math.min(frames.length - 1, j));
      frames.forEach(function (f, i) { f.hidden = i !== k; });
      label.textContent = "frame " + (k + 1) + " of " + frames.length;
      box.setAttribute("data-frame", String(k));
      prev.disabled = k === 0; next.disabled = k === frames.length - 1;
    }
    prev.addEventListener("click", function () { show(k - 1); });
    next.addEventListener("click", function () { show(k + 1); });
    show(0);
  });
})();
</script>"""


def stepthrough_html(run) -> str | None:
    """The step-through of ``run`` as one HTML block (no blank line inside, so Markdown keeps it raw), or None
    when the run has none."""
    from exactlin.render.plot import scene_css, scene_svg, step_scenes

    if not any(s.update for s in run.trace):
        return None
    try:
        scenes = step_scenes(run)
    except ExactlinError:
        return None
    n = len(scenes)

    def inline(svg: str) -> str:
        return svg.replace('xmlns="http://www.w3.org/2000/svg" ', "").replace("\n", "")

    # what every frame shares (axes, samples, legend) is drawn once; each frame is an overlay on it
    kinds = list(dict.fromkeys([k for sc in scenes for k, _ in sc.lines] + [k for sc in scenes for _, k in sc.rings]))
    ground = inline(scene_svg(scenes[0], layer="background", legend=kinds))
    frames = "".join(f'<div class="exactlin-frame"{"" if k == 0 else " hidden"}>'
                     f'{scene_svg(sc, layer="overlay", styled=False)}</div>' for k, sc in enumerate(scenes))
    return ("<div class=\"exactlin-steps\" data-frames=\"" + str(n) + "\" style=\"margin:1em 0\">"
            + "<style>" + scene_css(".exactlin-steps") + ".exactlin-frame{position:absolute;left:0;top:0}</style>"
            + "<div style=\"margin-bottom:0.4em\">"
            + "<button type=\"button\" class=\"exactlin-prev md-button\">&larr; previous</button> "
            + "<button type=\"button\" class=\"exactlin-next md-button\">next &rarr;</button> "
            + f"<span class=\"exactlin-step-label\">frame 1 of {n}</span></div>"
            + "<div style=\"position:relative;width:460px;max-width:100%\">" + ground + frames + "</div></div>")


def stepthrough_md(run, seen: dict | None = None, name: str = "this run") -> str:
    """The Markdown section of a worked example's run: a heading, a sentence and the step-through ('' when
    the run has none).  ``seen`` (one dict per page) maps the step-throughs already on the page to their run's
    ``name``: a run whose frames are the same (two variants taking the same steps) points to it instead."""
    block = stepthrough_html(run)
    if block is None:
        return ""
    n = run.updates
    head = ["### Step through the run", ""]
    if seen is not None and block in seen:
        return "\n".join(head + [html.escape(f"The same {n} update{'' if n == 1 else 's'}, frame for frame, as "
                                              f"{seen[block]}: see its step-through above.", quote=False), ""])
    if seen is not None:
        seen[block] = name
    shows = ("the boundary of the class being trained against the rest, before it (dashed), after it (solid)"
             if hasattr(run.model, "models") else
             "each class's region, where its w_c scores highest, after it" if hasattr(run.model, "classes") else
             "the boundary of w before it (dashed), after it (solid)")
    return "\n".join(head + [
        html.escape(f"One frame per update ({n} update{'' if n == 1 else 's'}, after the start): {shows}, and the "
                    "sample tested, circled in red when it was a mistake (orange: a correction of a sample already "
                    "on the right side). Use the buttons to step.", quote=False), "",
        block, "", SCRIPT, ""])

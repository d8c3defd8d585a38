"""``exactlin predict MODEL.json DATA.csv [--json | --format text|json|csv] [--label-column NAME|INDEX]
[--no-labels] [--delimiter D]``: a saved model's exact decisions and predictions on new points.

MODEL.json is written by ``exactlin fit ... --save MODEL.json`` (:mod:`exactlin.model.saved`; the JSON of
``exactlin fit --json`` is read too).  The model's own boundary rule decides: a point the notes leave
undefined (g(x) = 0, a tied argmax or vote, no or several one-vs-rest claimants) predicts nothing and is
reported as undefined.

Labels: with ``--label-column`` the file has labels in that column; with ``--no-labels`` it has none; by
default a file whose rows are exactly as wide as the model's feature count has no label column, and one
column wider has the label last.  With labels: the accuracy over the decided points (undefined points counted
apart) and the confusion matrix (rows: the file's labels; columns: the predictions, then "undefined").
"""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Any

from exactlin.cli.common import LOADED, add_data_args, emit_json, examples_epilog, out, parse_delimiter
from exactlin.errors import ParameterError

__all__ = ["register", "cmd_predict", "load_saved_model"]


def load_saved_model(path: str):
    """The :class:`~exactlin.model.saved.SavedModel` in ``path`` (a ParameterError naming the file otherwise)."""
    from pathlib import Path

    from exactlin.model.saved import load_model_text

    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ParameterError(f"{path}: no such model file", parameter="model") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ParameterError(f"{path}: cannot be read as a model file ({e})", parameter="model") from None
    return load_model_text(text, source=str(path))


def _read_points(args, n_features: int | None):
    """(dataset, labeled): the points of DATA (a file or - for standard input, read once)."""
    from exactlin.data.dataset import parse_csv_bytes

    delimiter = parse_delimiter(args.delimiter)
    if args.label_column is not None and args.no_labels:
        raise ParameterError("--label-column and --no-labels conflict: give one of them", parameter="label_column")
    if args.data == "-":
        raw, source = sys.stdin.buffer.read(), "<stdin>"
    else:
        from exactlin.data.dataset import read_bytes

        raw, source = read_bytes(args.data), str(args.data)
    if args.no_labels:
        ds, labeled = parse_csv_bytes(raw, source=source, delimiter=delimiter, labels=False), False
    elif args.label_column is not None:
        ds, labeled = parse_csv_bytes(raw, source=source, delimiter=delimiter, label_column=args.label_column), True
    else:
        unlabeled = parse_csv_bytes(raw, source=source, delimiter=delimiter, labels=False)
        if n_features is not None and unlabeled.d == n_features:
            ds, labeled = unlabeled, False
        else:
            ds, labeled = parse_csv_bytes(raw, source=source, delimiter=delimiter), True
    if n_features is not None and ds.d != n_features:
        raise ParameterError(
            f"{source} has {ds.d} feature column{'s' if ds.d != 1 else ''}"
            + (" and a label column" if labeled else "")
            + f"; the model takes {n_features} features (a file of {n_features} columns has no labels, "
              f"{n_features + 1} columns: the label last, or say which with --label-column)",
            parameter="data")
    LOADED["ds"] = ds
    return ds, labeled


def _same(model_label, file_label) -> bool:
    """Whether a model's label (as JSON kept it) names the file's label (the --positive matching rule)."""
    from exactlin.data.dataset import label_matcher

    return label_matcher(model_label)(file_label)


def _prediction_rows(saved, ds, labeled: bool) -> tuple[list[dict], dict]:
    model = saved.model
    decisions = model.decision(list(ds.X))
    predictions = model.predict(list(ds.X))
    points: list[dict] = []
    known = list(saved.labels) or []
    for p in predictions:
        if p is not None and not any(_same(k, p) and type(k) is type(p) for k in known):
            known.append(p)
    undefined = sum(p is None for p in predictions)
    summary: dict[str, Any] = {"n": len(predictions), "decided": len(predictions) - undefined,
                               "undefined": undefined}
    rows_labels: list[Any] = []  # the file's labels, in first-seen order of the model's labels, then others
    if labeled:
        for lab in ds.y:
            if not any(_same(r, lab) for r in rows_labels):
                rows_labels.append(lab)
        order = {i: next((j for j, k in enumerate(known) if _same(k, lab)), len(known) + i)
                 for i, lab in enumerate(rows_labels)}
        rows_labels = [rows_labels[i] for i in sorted(order, key=order.get)]
    matrix = {i: {j: 0 for j in range(len(known))} for i in range(len(rows_labels))}
    undefined_by = {i: 0 for i in range(len(rows_labels))}
    correct = 0
    for idx, (x, g, p) in enumerate(zip(ds.X, decisions, predictions)):
        row: dict[str, Any] = {"line": ds.lines[idx] if ds.lines else idx + 1, "x": list(x), "decision": g,
                               "prediction": p, "undefined": p is None}
        if labeled:
            lab = ds.y[idx]
            row["label"] = lab
            ok = None if p is None else _same(p, lab)
            row["correct"] = ok
            i = next(r for r, rl in enumerate(rows_labels) if _same(rl, lab))
            if p is None:
                undefined_by[i] += 1
            else:
                j = next(c for c, k in enumerate(known) if _same(k, p))
                matrix[i][j] += 1
                correct += bool(ok)
        points.append(row)
    if labeled:
        decided = summary["decided"]
        summary.update({
            "correct": correct,
            "accuracy": Fraction(correct, decided) if decided else None,
            "accuracy_meaning": "correct / decided points (undefined points counted apart, in 'undefined')",
            "confusion": {"rows": "the file's labels", "columns": "the predicted labels, then undefined",
                          "labels": list(rows_labels), "predicted": list(known),
                          "matrix": [[matrix[i][j] for j in range(len(known))] + [undefined_by[i]]
                                     for i in range(len(rows_labels))]},
        })
    return points, summary


def cmd_predict(args) -> int:
    from exactlin.render.report import fmt_value

    if args.json and args.format not in (None, "json"):
        raise ParameterError(f"--json and --format {args.format} conflict: give one of them", parameter="format")
    fmt_ = args.format or ("json" if args.json else "text")
    saved = load_saved_model(args.model)
    n_features = saved.model.n_features()
    if n_features is None:
        n_features = saved.n_features
    ds, labeled = _read_points(args, n_features)
    points, summary = _prediction_rows(saved, ds, labeled)
    show = lambda v: "undefined" if v is None else fmt_value(v)  # noqa: E731
    if fmt_ == "json":
        emit_json({"model_info": {"file": str(args.model), "algorithm": saved.algorithm, "bias": saved.bias,
                             "format": saved.format, "n_features": n_features, "labels": list(saved.labels),
                             "rule": type(saved.model).__name__},
                   "data": ds.source, "labeled": labeled, "points": points, "summary": summary})
        return 0
    if fmt_ == "csv":
        import csv
        import io

        from exactlin.exact.format import exact_text as fmt_value  # machine-readable: every number in full
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        names = list(ds.feature_names or [f"x{j + 1}" for j in range(ds.d)])
        w.writerow(["line", *names, "decision", "prediction"] + (["label", "correct"] if labeled else []))
        for r in points:
            extra = [fmt_value(r["label"]), "" if r["correct"] is None else ("yes" if r["correct"] else "no")] \
                if labeled else []
            w.writerow([r["line"], *(fmt_value(v) for v in r["x"]), fmt_value(r["decision"]), show(r["prediction"]),
                        *extra])
        sys.stdout.write(buf.getvalue())
        return 0
    from exactlin.render.report import text_table

    out(f"model: {saved.algorithm} ({type(saved.model).__name__}), bias {saved.bias}, {n_features} features; "
        f"data: {ds.source} ({'labels in ' + (ds.label_name or 'the label column') if labeled else 'no labels'})")
    header = ["line", "x", "decision", "prediction"] + (["label", "correct"] if labeled else [])
    rows = []
    for r in points:
        row = [str(r["line"]), fmt_value(r["x"]), fmt_value(r["decision"]), show(r["prediction"])]
        if labeled:
            row += [fmt_value(r["label"]), "-" if r["correct"] is None else ("yes" if r["correct"] else "no")]
        rows.append(row)
    out(text_table(header, rows))
    out(f"points: {summary['n']}; decided: {summary['decided']}; undefined (on the boundary): {summary['undefined']}")
    if labeled:
        acc = summary["accuracy"]
        out(f"accuracy: {summary['correct']}/{summary['decided']} of the decided points"
            + ("" if acc is None else f" = {fmt_value(acc)}") + " (undefined points counted apart)")
        conf = summary["confusion"]
        out("confusion matrix (rows: the file's labels; columns: the predictions):")
        out(text_table(["label \\ predicted", *(show(k) for k in conf["predicted"]), "undefined"],
                       [[show(lab), *(str(c) for c in counts)] for lab, counts in zip(conf["labels"], conf["matrix"])]))
    return 0


def register(subparsers) -> None:
    import argparse

    p = subparsers.add_parser(
        "predict", help="a saved model's exact decisions and predictions on new points (exactlin fit --save)",
        description=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=examples_epilog(
            "exactlin fit perceptron train.csv --save model.json",
            "exactlin predict model.json new-points.csv              # rows of features only",
            "exactlin predict model.json test.csv --label-column label --format csv",
            "cat test.tsv | exactlin predict model.json - --json"))
    p.add_argument("model", help="a model file written by exactlin fit --save (or fit --json output)")
    p.add_argument("data", help="CSV of points: features only, or features and a label; - reads standard input")
    p.add_argument("--no-labels", action="store_true", help="every column is a feature (no label column)")
    p.add_argument("--json", action="store_true", help="print one JSON object (= --format json)")
    p.add_argument("--format", choices=["text", "json", "csv"], default=None, help="text (default), json or csv")
    add_data_args(p)
    p.set_defaults(handler=cmd_predict)

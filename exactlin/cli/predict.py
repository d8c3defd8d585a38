"""``exactlin predict MODEL.json DATA.csv [--json | --format text|json|csv] [--label-column NAME|INDEX]
[--no-labels] [--delimiter D]``: a saved model's exact decisions and predictions on new points.

MODEL.json is written by ``exactlin fit ... --save MODEL.json`` (:mod:`exactlin.model.saved`; the JSON of
``exactlin fit --json`` is read too).  The model's own boundary rule decides: a point the notes leave
undefined (g(x) = 0, a tied argmax or vote, no or several one-vs-rest claimants) predicts nothing and is
reported as undefined.

Labels: with ``--label-column`` the file has labels in that column; with ``--no-labels`` it has none; by
default a file whose rows are exactly as wide as the model's feature count has no label column, and one
column wider has the label last (of any kind: numbers or names).  A file's label is its text; it names a model
label when it equals that label's text (``pass`` names pass, ``1`` names the label 1, ``01`` does not).  With
labels: the accuracy over the decided points (undefined points counted apart) and the confusion matrix (rows:
the file's labels; columns: the predictions, then "undefined").  File labels that name no label of the model
(a model of pass/fail, a file of +1/-1) are reported: a warning on standard error that says which labels, on
how many points, and what was compared, and ``label_mismatch`` in the JSON summary; the exit status stays 0.
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
    from exactlin.errors import CSVError

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
        # every column a feature, or the last one a label of any kind (a word such as 'cat' reads only as a label)
        try:
            unlabeled, error = parse_csv_bytes(raw, source=source, delimiter=delimiter, labels=False), None
        except CSVError as e:
            unlabeled, error = None, e
        if unlabeled is not None and (n_features is None or unlabeled.d == n_features):
            ds, labeled = unlabeled, False
        else:
            try:
                ds, labeled = parse_csv_bytes(raw, source=source, delimiter=delimiter), True
            except CSVError:
                if error is None:
                    raise
                raise error from None
            if error is not None and n_features is not None and ds.d != n_features:
                raise error  # not one column too wide for a label: the bad cell is the error
    if n_features is not None and ds.d != n_features:
        raise ParameterError(
            f"{source} has {ds.d} feature column{'s' if ds.d != 1 else ''}"
            + (" and a label column" if labeled else "")
            + f"; the model takes {n_features} features (a file of {n_features} columns has no labels, "
              f"{n_features + 1} columns: the label last, or say which with --label-column)",
            parameter="data")
    LOADED["ds"] = ds
    return ds, labeled


def _text(lab) -> str:
    from exactlin.data.dataset import label_text

    return label_text(lab)


def _prediction_rows(saved, ds, labeled: bool) -> tuple[list[dict], dict]:
    """The points with their decisions and predictions, and the summary.  A file label names the model label of
    the same text (:func:`exactlin.data.labels.label_text`): the one rule of a file label against a model."""
    model = saved.model
    decisions = model.decision(list(ds.X))
    predictions = model.predict(list(ds.X))
    points: list[dict] = []
    known: list = []  # the model's labels (the columns of the confusion matrix), then any other prediction
    for k in [*saved.labels, *(p for p in predictions if p is not None)]:
        if _text(k) not in map(_text, known):
            known.append(k)
    model_texts = {_text(k): j for j, k in enumerate(known)}
    undefined = sum(p is None for p in predictions)
    summary: dict[str, Any] = {"n": len(predictions), "decided": len(predictions) - undefined,
                               "undefined": undefined}
    rows_labels: list[Any] = []  # the file's labels: those the model knows in its order, then the others
    if labeled:
        seen: dict[str, Any] = {}
        for lab in ds.y:
            seen.setdefault(_text(lab), lab)
        rows_labels = sorted(seen.values(), key=lambda lab: model_texts.get(_text(lab), len(known)))
    row_of = {_text(lab): i for i, lab in enumerate(rows_labels)}
    matrix = [[0] * (len(known) + 1) for _ in rows_labels]  # the last column: undefined
    correct = 0
    for idx, (x, g, p) in enumerate(zip(ds.X, decisions, predictions)):
        row: dict[str, Any] = {"line": ds.lines[idx] if ds.lines else idx + 1, "x": list(x), "decision": g,
                               "prediction": p, "undefined": p is None}
        if labeled:
            lab = ds.y[idx]
            row["label"] = lab
            ok = None if p is None else _text(p) == _text(lab)
            row["correct"] = ok
            matrix[row_of[_text(lab)]][len(known) if p is None else model_texts[_text(p)]] += 1
            correct += bool(ok)
        points.append(row)
    if labeled:
        decided = summary["decided"]
        summary.update({
            "correct": correct,
            "accuracy": Fraction(correct, decided) if decided else None,
            "accuracy_meaning": "correct / decided points (undefined points counted apart, in 'undefined'); a "
                                "prediction is correct when its text equals the file's label",
            "confusion": {"rows": "the file's labels", "columns": "the predicted labels, then undefined",
                          "labels": list(rows_labels), "predicted": list(known), "matrix": matrix},
        })
        mismatch = _label_mismatch(saved, ds, known)
        if mismatch is not None:
            summary["label_mismatch"] = mismatch
    return points, summary


def _label_mismatch(saved, ds, known: list) -> dict | None:
    """The file's labels that name no label of the model (by text), with their counts; None when all do."""
    model_labels = list(saved.labels) or known
    texts = {_text(k) for k in model_labels}
    counts: dict[str, list] = {}
    for lab in ds.y:
        t = _text(lab)
        if t not in texts:
            counts.setdefault(t, [lab, 0])[1] += 1
    if not counts:
        return None
    return {"file_labels": [lab for lab, _n in counts.values()], "points": [n for _lab, n in counts.values()],
            "n_points": sum(n for _lab, n in counts.values()), "of": len(ds.y), "model_labels": model_labels,
            "compared": "the text of each file label with the text of each model label"}


def _mismatch_text(m: dict) -> str:
    from exactlin.exact.format import quote

    shown = lambda labs: ", ".join(quote(_text(v)) for v in labs)  # noqa: E731
    per = ", ".join(f"{quote(_text(lab))} ({n} point{'s' if n != 1 else ''})"
                    for lab, n in zip(m["file_labels"], m["points"]))
    return (f"{m['n_points']} of {m['of']} labelled points have a label the model does not predict: {per}; the "
            f"model's labels are {shown(m['model_labels'])} (compared: the text of each file label with the text "
            "of each model label); every decided one of them counts as wrong")


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
    if "label_mismatch" in summary:
        sys.stderr.write(f"exactlin: warning: {_mismatch_text(summary['label_mismatch'])}\n")
    show = lambda v: "undefined" if v is None else _text(v)  # noqa: E731  (a label by its text: True, not yes)
    if fmt_ == "json":  # labels keep their type (text=True: "01" stays a text, 0.5 a float)
        from exactlin.model.serialize import to_jsonable

        doc = {"model_info": {"file": str(args.model), "algorithm": saved.algorithm, "bias": saved.bias,
                              "format": saved.format, "n_features": n_features, "labels": list(saved.labels),
                              "rule": type(saved.model).__name__},
               "data": ds.source, "labeled": labeled, "points": points, "summary": summary}
        emit_json(to_jsonable(doc, text=True))
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
            extra = [_text(r["label"]), "" if r["correct"] is None else ("yes" if r["correct"] else "no")] \
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
            row += [_text(r["label"]), "-" if r["correct"] is None else ("yes" if r["correct"] else "no")]
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

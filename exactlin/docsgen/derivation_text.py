"""What a student reads on each algorithm page: the rule derived as a textbook derives it.

One :class:`Derivation` per registered algorithm (families share their text, with each member's differences
written where they differ), rendered by one template (:func:`exactlin.docsgen.algopages.algorithm_page`) in
this order: the problem; the criterion; its gradient or the geometric argument; the rule; when it stops; what
it guarantees (the theorem and its proof, instantiated on the worked example at build time); the notes' own
statement with its errata; and, last, how exactlin computes it.

Everything here is Markdown with LaTeX between dollar signs; the site converts the LaTeX to MathML when it is
built.  Nothing in this module names the implementation: the last section of a page is generated from the code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from exactlin.lectures.notes import SEED000, SEED001, SEED002, SEED003, SEED004

__all__ = ["Derivation", "DERIVATIONS", "GRADIENT", "GEOMETRY"]

GRADIENT = "The gradient"
GEOMETRY = "The geometric argument"


@dataclass(frozen=True)
class Derivation:
    problem: str
    criterion: str
    argument: str
    rule: str
    stops: str
    guarantee: str
    quote: str  # the notes' own words, short
    quote_seed: str
    quote_where: str
    argument_title: str = GRADIENT
    errata: tuple[str, ...] = ()
    #: which instantiation of the guarantee on the worked example (a key of algopages.INSTANCES)
    instance: str = ""
    extra_quotes: tuple[tuple[str, str, str], ...] = field(default=())  # (quote, seed, where)


# ---------------------------------------------------------------------------
# shared pieces

_SEPARABLE_000 = (
    r"We are given $n$ labelled samples $(x_1, y_1), \dots, (x_n, y_n)$ with $x_i \in \mathbb{R}^d$ and "
    r"$y_i \in \{+1, -1\}$, and look for a weight vector $w$ whose hyperplane $\langle w, x \rangle = 0$ puts "
    r"every sample on the side of its label: $\operatorname{sign}\langle w, x_i \rangle = y_i$, that is "
    r"$$y_i \langle w, x_i \rangle > 0 \quad \text{for } i = 1, \dots, n.$$ "
    r"A hyperplane $\langle w, x \rangle + b = 0$ that misses the origin is the same problem one dimension "
    r"up: append a constant feature $1$ to every $x_i$ and the bias $b$ to $w$ (the *augmented* vectors of the "
    r"notes).")

_SEPARABLE_003 = (
    r"Augment every sample with a constant $1$, $\tilde x_i = (1, x_i)$, so that a hyperplane "
    r"$w^t x + w_0 = 0$ becomes $a^t \tilde x = 0$ with $a = (w_0, w)$. Then *normalize*: multiply the samples "
    r"of the second class by $-1$, $y_i = z_i \tilde x_i$ with $z_i = \pm 1$ the label. A *solution vector* "
    r"is an $a$ with $$a^t y_i > 0 \quad \text{for every } i,$$ one inequality for all samples whatever their "
    r"class. Such an $a$ exists exactly when the two classes are linearly separable.")

_PERCEPTRON_CRITERION = (
    r"Counting the misclassified samples is the natural criterion, but it is piecewise constant: its gradient is "
    r"zero wherever it exists and gives no direction to move. The *perceptron criterion* (seed 002's risk "
    r"$R(w)$, seed 003's $J_p$) measures instead *how far* on the wrong side the misclassified samples are: "
    r"$$J_p(a) = \sum_{y \in \mathcal{Y}(a)} \left(-a^t y\right), \qquad "
    r"\mathcal{Y}(a) = \{ y_i : a^t y_i \le 0 \}.$$ "
    r"Every term is $\ge 0$, so $J_p \ge 0$, and $J_p(a) = 0$ exactly when no sample is strictly on the wrong "
    r"side. The trivial $a = 0$ also gives $J_p = 0$; this is why the rules below count a score of exactly $0$ "
    r"as a mistake: $a = 0$ is then never accepted.")

_PERCEPTRON_GRADIENT = (
    r"Where the set $\mathcal{Y}(a)$ does not change, $J_p$ is linear in $a$, and "
    r"$\nabla_a (-a^t y) = -y$, so $$\nabla J_p(a) = -\sum_{y \in \mathcal{Y}(a)} y .$$ "
    r"Gradient descent $a \leftarrow a - \eta \nabla J_p(a)$ is therefore "
    r"$a \leftarrow a + \eta \sum_{y \in \mathcal{Y}(a)} y$: add the misclassified samples. Using one "
    r"misclassified sample at a time (stochastic gradient descent on its own term $-a^t y_k$) gives "
    r"$a \leftarrow a + \eta\, y_k$.\n\n"
    r"Geometrically the step helps the sample it corrects: after $a' = a + \eta y_k$, "
    r"$$a'^t y_k = a^t y_k + \eta \|y_k\|^2 ,$$ "
    r"the score of $y_k$ rises by $\eta \|y_k\|^2 > 0$ (seed 000: $w_{t+1}$ \"moves closer to\" $x_t$ when "
    r"$y_t = +1$ and away from it when $y_t = -1$). One step need not be enough: if $a^t y_k < -\eta\|y_k\|^2$ "
    r"the sample is still misclassified afterwards.")

_THEOREM = (
    r"**Theorem** (perceptron convergence; seed 000, seed 003's Theorem 5.1, seed 004). Suppose some $w^*$ "
    r"separates the samples with $\gamma = \min_i y_i \langle w^*, x_i \rangle > 0$, and let "
    r"$R = \max_i \|x_i\|$. Starting from $w_1 = 0$ with step $\eta > 0$, the number $K$ of mistakes is at most "
    r"$$K \le \frac{R^2 \|w^*\|^2}{\gamma^2}.$$ "
    r"(Seed 000 states it for $\|x_i\| \le 1$, $\|w^*\| = 1$: $K \le 1/\gamma^2$; seed 004 for $\gamma = 1$: "
    r"$m \le r^2 \|w^*\|^2$. Scaling $x$ and $w^*$ turns one into the other.)\n\n"
    r"*Proof.* Look at two numbers after each mistake at round $t$, where $w_{t+1} = w_t + \eta y_t x_t$.\n\n"
    r"1. **Fact 1** — the projection on $w^*$ grows: "
    r"$\langle w_{t+1}, w^* \rangle = \langle w_t, w^* \rangle + \eta\, y_t \langle x_t, w^* \rangle "
    r"\ge \langle w_t, w^* \rangle + \eta \gamma$. After $K$ mistakes, "
    r"$\langle w, w^* \rangle \ge K \eta \gamma$.\n"
    r"2. **Fact 2** — the length grows slowly: "
    r"$\|w_{t+1}\|^2 = \|w_t\|^2 + 2 \eta\, y_t \langle w_t, x_t \rangle + \eta^2 \|x_t\|^2 "
    r"\le \|w_t\|^2 + \eta^2 R^2$, because $y_t \langle w_t, x_t \rangle \le 0$ at a mistake. After $K$ "
    r"mistakes, $\|w\|^2 \le K \eta^2 R^2$.\n"
    r"3. By Cauchy-Schwarz, $K \eta \gamma \le \langle w, w^* \rangle \le \|w\| \|w^*\| \le "
    r"\sqrt{K}\, \eta R \|w^*\|$; divide by $\sqrt{K}\, \eta \gamma$ and square. $\square$\n\n"
    r"The bound does not depend on $n$ or on the order of the samples; a small margin $\gamma$ allows many "
    r"mistakes. If the data are not separable no $w^*$ exists and the corrections never cease "
    r"(seed 003, \"Nonseparable behavior\").")

_BATCH_THEOREM = (
    r"**Theorem** (the batch form of the convergence theorem). Suppose some $a^*$ has "
    r"$\gamma = \min_i a^{*t} y_i > 0$; let $R = \max_i \|y_i\|$ and start from $a(1) = 0$ with a constant step. "
    r"Then the total number $M$ of corrections (a sample added in an iteration counts once) satisfies "
    r"$$M \le \frac{n R^2 \|a^*\|^2}{\gamma^2}.$$ "
    r"*Proof.* An iteration adds the sum $s_k = \sum_{y \in \mathcal{Y}_k} y$ of $m_k = |\mathcal{Y}_k|$ "
    r"misclassified samples. Fact 1: $a^{*t} s_k \ge m_k \gamma$, so the projection on $a^*$ grows by at least "
    r"$\eta m_k \gamma$. Fact 2: $\|a + \eta s_k\|^2 = \|a\|^2 + 2\eta\, a^t s_k + \eta^2 \|s_k\|^2 \le "
    r"\|a\|^2 + \eta^2 m_k^2 R^2$ because every $a^t y \le 0$ in $\mathcal{Y}_k$ and "
    r"$\|s_k\| \le m_k R$; with $m_k \le n$ this is $\le \|a\|^2 + \eta^2 n m_k R^2$. Summing and applying "
    r"Cauchy-Schwarz as in the single-sample proof gives $(\eta M \gamma)^2 \le \|a^*\|^2\, \eta^2 n M R^2$. "
    r"$\square$")

_CYCLE_STOP = (
    r"If the data are not separable, no pass is ever clean. A single-sample rule with rational data then visits "
    r"finitely many weight vectors or grows without bound; when the same weight vector comes back at the same "
    r"position in the pass, the run repeats forever, and the samples corrected along the cycle prove that no "
    r"separator exists (their weighted sum is $0$: Gordan's theorem of the alternative).")

_SVM_PROBLEM = (
    r"Among all hyperplanes $w \cdot x + b = 0$ that separate the two classes ($y_i \in \{+1, -1\}$), find the "
    r"one farthest from the nearest sample. Seed 004: \"Optimum classifier is one that maximizes the width of "
    r"its margin\"; the samples on the edge of the margin are the *support vectors*.")

_SVM_GEOMETRY = (
    r"The signed distance from $x_i$ to the hyperplane is $(w \cdot x_i + b)/\|w\|$ (seed 003, \"Geometric "
    r"analysis\": $r = g(x)/\|w\|$). Scaling $(w, b)$ by any $c > 0$ leaves the hyperplane unchanged, so fix "
    r"the scale by asking the nearest samples to have $y_i (w \cdot x_i + b) = 1$ and all to have "
    r"$y_i (w \cdot x_i + b) \ge 1$. The margin is then $\min_i y_i(w \cdot x_i + b)/\|w\| = 1/\|w\|$ and "
    r"the empty slab between $w \cdot x + b = \pm 1$ has width $2/\|w\|$. Maximizing $1/\|w\|$ is minimizing "
    r"$\|w\|$, and $\tfrac12 \|w\|^2$ has the same minimizer and is smooth.\n\n"
    r"**The Lagrangian.** With one multiplier $\alpha_i \ge 0$ per constraint, "
    r"$$L(w, b, \alpha) = \tfrac12 \|w\|^2 - \sum_i \alpha_i \left[ y_i (w \cdot x_i + b) - 1 \right].$$ "
    r"Setting its gradient to zero: $\nabla_w L = w - \sum_i \alpha_i y_i x_i = 0$ and "
    r"$\partial L / \partial b = -\sum_i \alpha_i y_i = 0$.")

_KKT = (
    r"The problem is convex with linear constraints, so $(w, b)$ is optimal **if and only if** some $\alpha$ "
    r"satisfies the Karush-Kuhn-Tucker conditions:\n\n"
    r"1. stationarity: $w = \sum_i \alpha_i y_i x_i$ and $\sum_i \alpha_i y_i = 0$;\n"
    r"2. primal feasibility: $y_i (w \cdot x_i + b) \ge 1$ for every $i$;\n"
    r"3. dual feasibility: $\alpha_i \ge 0$;\n"
    r"4. complementary slackness: $\alpha_i \left[ y_i (w \cdot x_i + b) - 1 \right] = 0$ — only samples on "
    r"the margin can have $\alpha_i > 0$.\n\n"
    r"*Why sufficient:* for any feasible $(w', b')$, $\tfrac12\|w'\|^2 \ge \tfrac12\|w\|^2 + w \cdot (w' - w)$ "
    r"(convexity) and $w \cdot (w' - w) = \sum_i \alpha_i y_i (x_i \cdot w' + b' - x_i \cdot w - b) = "
    r"\sum_i \alpha_i [y_i(w' \cdot x_i + b') - 1] \ge 0$ by 1, 4 and feasibility. So a set of exact numbers "
    r"that passes the four checks *is* the maximum-margin classifier; $w$ and $b$ are unique when the data are "
    r"separable (the objective is strictly convex in $w$), even when $\alpha$ is not.")


def _svm_rule(loss: str) -> str:
    return (
        r"Guess which samples are support vectors (the *active set* $S$). On $S$ the constraints hold with "
        r"equality and $w = \sum_{j \in S} \alpha_j y_j x_j$, so the unknowns $\alpha_S$ and $b$ solve the "
        r"linear system $$\sum_{j \in S} \alpha_j y_j\, x_i \cdot x_j + b = y_i" + loss +
        r"\quad (i \in S), \qquad \sum_{j \in S} \alpha_j y_j = 0 .$$ "
        r"Solve it exactly, set $\alpha_i = 0$ off $S$, and check the Karush-Kuhn-Tucker conditions. The "
        r"classifier is $$f(z) = \operatorname{sign}\Big( \sum_{i \in S} \alpha_i y_i\, x_i \cdot z + b \Big),$$ "
        r"the form seed 004 prints: it uses the data only through dot products.")


# ---------------------------------------------------------------------------
# the pages

DERIVATIONS: dict[str, Derivation] = {}


def _text(s):
    """The raw strings above write a line break as backslash-n (never a LaTeX command: those continue with a
    letter) and a double quote as backslash-quote."""
    if not isinstance(s, str):
        return s
    s = s.replace("\\n\\n", "\n\n")
    return re.sub(r"\\n(?![A-Za-z])", "\n", s).replace('\\"', '"')


def _add(name: str, **kw) -> None:
    DERIVATIONS[name] = Derivation(**{k: _text(v) for k, v in kw.items()})


_add("perceptron",
     problem=_SEPARABLE_000,
     criterion=(r"Counting the mistakes is the natural criterion, but it is piecewise constant: its gradient is zero "
                r"wherever it exists and gives no direction to move. The *perceptron criterion* (seed 002's risk "
                r"$R(w)$, seed 003's $J_p$) measures instead *how far* on the wrong side the mistakes are: "
                r"$$J_p(w) = \sum_{i \in \mathcal{M}(w)} -y_i \langle w, x_i \rangle, \qquad "
                r"\mathcal{M}(w) = \{ i : y_i \langle w, x_i \rangle \le 0 \}.$$ "
                r"Every term is $\ge 0$, so $J_p \ge 0$, and $J_p(w) = 0$ exactly when no sample is strictly on "
                r"the wrong side. The trivial $w = 0$ also gives $J_p = 0$; this is why the rule counts a score of "
                r"exactly $0$ as a mistake: $w = 0$ is then never accepted."),
     argument=(r"Where the set $\mathcal{M}(w)$ of mistakes does not change, $J_p$ is linear in $w$ and "
               r"$$\nabla J_p(w) = -\sum_{i \in \mathcal{M}(w)} y_i x_i .$$ "
               r"A gradient step on the term of one misclassified sample $x_t$ alone (stochastic gradient "
               r"descent, seed 002) is $w \leftarrow w + \eta\, y_t x_t$. It helps that sample: "
               r"$$y_t \langle w_{t+1}, x_t \rangle = y_t \langle w_t, x_t \rangle + \eta \|x_t\|^2 ,$$ "
               r"since $y_t^2 = 1$. Seed 000 says it geometrically: when $y_t = +1$, $w_{t+1}$ moves closer to "
               r"$x_t$; when $y_t = -1$, away from it. One step need not fix the sample: if "
               r"$y_t \langle w_t, x_t \rangle < -\eta \|x_t\|^2$ it is still a mistake afterwards (seed 000's "
               r"exercise)."),
     rule=(r"Start from $w_1 = 0$ and visit the samples in order, cyclically. At round $t$ with sample "
           r"$(x_t, y_t)$: $$y_t \langle w_t, x_t \rangle \le 0 \;\Longrightarrow\; w_{t+1} = w_t + \eta\, y_t x_t, "
           r"\qquad \text{otherwise } w_{t+1} = w_t .$$ "
           r"Seed 000 takes $\eta = 1$; from $w_1 = 0$ any $\eta > 0$ only scales every $w_t$ by $\eta$ and "
           r"makes the same mistakes. The final $w$ is $\eta \sum y_i x_i$ over the mistakes (seed 004's note "
           r"\"final $w$ is of the form $\sum_i n_i x_i$\")."),
     stops=(r"When $n$ rounds in a row make no mistake: every sample has $y_i \langle w, x_i \rangle > 0$, so $w$ "
            r"separates the data and will never change again. " + _CYCLE_STOP),
     guarantee=_THEOREM,
     quote=(r"If $y_t \langle w_t, x_t \rangle \leq 0$ then $w_{t+1} = w_t + y_t x_t$, else $w_{t+1} = w_t$. "
            r"[…] Theorem: If the training data is linearly separable with margin $\gamma$, and if "
            r"$\|x_i\| \leq 1$ for all $i$ in the training set, then, perceptron makes $\leq 1/\gamma^2$ "
            r"mistakes."),
     quote_seed=SEED000, quote_where="The Perceptron Algorithm; When does Perceptron Converge?",
     errata=("seed000-fact1-conclusion", "seed000-theorem-unit-norm", "seed000-gamma-label",
             "seed004-update-missing-label", "seed004-strict-start"),
     instance="monitor")

_add("fixed-increment",
     problem=_SEPARABLE_003,
     criterion=_PERCEPTRON_CRITERION,
     argument=_PERCEPTRON_GRADIENT,
     rule=(r"Start from any $a$ (here $a = 0$) and visit the normalized samples cyclically, "
           r"$k \leftarrow (k + 1) \bmod n$: $$a^t y_k \le 0 \;\Longrightarrow\; a \leftarrow a + y_k .$$ "
           r"This is the perceptron of seed 000 with $\eta = 1$, written on normalized samples: "
           r"$a^t y_k = z_k\, a^t \tilde x_k$."),
     stops=(r"When a full pass corrects nothing: all samples have $a^t y_k > 0$ and $a$ is a solution vector. "
            + _CYCLE_STOP),
     guarantee=(r"Algorithm 4 is the perceptron with $\eta = 1$ on the normalized samples: read $w$ as $a$ and "
                r"$y_t x_t$ (a label times a sample) as the normalized $y_k$. The theorem below is therefore seed "
                r"003's Theorem 5.1 with a bound on the number of corrections.\n\n" + _THEOREM),
     quote=(r"if $\mathbf{y}_k$ is misclassified by a then $\mathbf{a} \leftarrow \mathbf{a} - \mathbf{y}_k$ "
            r"[…] Theorem 5.1 (Perceptron Convergence) If training samples are linearly separable then the "
            r"sequence of weight vectors given by Algorithm 4 will terminate at a solution vector."),
     quote_seed=SEED003, quote_where="Algorithm 4 (Fixed-increment single-sample Perceptron)",
     errata=("alg4-sign",), instance="monitor")

_add("variable-increment",
     problem=_SEPARABLE_003 + (r" With a *margin* $b > 0$ we ask for more: $a^t y_i > b$ for every $i$, which "
                               r"keeps the solution away from the boundary of the solution region."),
     criterion=_PERCEPTRON_CRITERION.replace(r"a^t y_i \le 0 \}", r"a^t y_i \le b \}").replace(
         r"\left(-a^t y\right)", r"\left(b - a^t y\right)"),
     argument=_PERCEPTRON_GRADIENT.replace(r"$a \leftarrow a + \eta\, y_k$", r"$a \leftarrow a + \eta(k)\, y_k$"),
     rule=(r"Start from $a(1)$ (here $0$) and visit the samples cyclically: "
           r"$$a^t y_k \le b \;\Longrightarrow\; a \leftarrow a + \eta(k)\, y_k ,$$ "
           r"with a step $\eta(k) > 0$ that may vary with $k$ (a constant, or e.g. $\eta(k) = 1/k$)."),
     stops="When a full pass finds $a^t y_k > b$ for every $k$. " + _CYCLE_STOP.split(" A single-sample")[0],
     guarantee=(r"**Theorem** (Duda, Hart and Stork, section 5.5.2; the notes state only the rule). If the "
                r"samples are linearly separable and the steps "
                r"satisfy $\eta(k) \ge 0$, $\sum_k \eta(k) = \infty$ and "
                r"$\sum_k \eta(k)^2 / \left(\sum_k \eta(k)\right)^2 \to 0$, the rule reaches a solution vector "
                r"with $a^t y_i > b$ after finitely many corrections. With $b = 0$ and a constant $\eta$ it is "
                r"the fixed-increment rule scaled by $\eta$, and the perceptron bound "
                r"$K \le R^2 \|a^*\|^2/\gamma^2$ applies unchanged.\n\n"
                r"*Proof sketch.* As in the perceptron proof, each correction raises $a^{*t} a$ by "
                r"$\eta(k)\, a^{*t} y_k \ge \eta(k) \gamma$ and raises $\|a\|^2$ by at most "
                r"$2\eta(k) b + \eta(k)^2 R^2$ (the score was $\le b$). The projection grows like "
                r"$\sum \eta(k)$ and the length like the square root of $\sum (2 b \eta(k) + \eta(k)^2 R^2)$; with "
                r"$a^*$ scaled so that $\gamma$ is large against $b$, Cauchy-Schwarz caps the number of "
                r"corrections. $\square$"),
     quote=(r"$\mathbf{a}(k+1) = \mathbf{a}(k) + \eta(k)\mathbf{y}^k \quad k \ge 1$ […] "
            r"if $\mathbf{a}^t \mathbf{y}_k + b < 0$ then $\mathbf{a} \leftarrow \mathbf{a} - \eta(k) \mathbf{y}_k$"),
     quote_seed=SEED003, quote_where="Variable increment perceptron with margin (Algorithm 5)",
     errata=("alg5-rule",), instance="margin_check")

_add("batch-perceptron",
     problem=_SEPARABLE_003,
     criterion=_PERCEPTRON_CRITERION,
     argument=_PERCEPTRON_GRADIENT.split("Using one")[0] + (
         r"This is the batch rule: it uses every misclassified sample of the current $a$ at once."),
     rule=(r"Start from $a(1)$ (here $0$). At iteration $k$ collect "
           r"$\mathcal{Y}_k = \{ y_i : a(k)^t y_i \le 0 \}$ and step along the negative gradient: "
           r"$$a(k+1) = a(k) + \eta(k) \sum_{y \in \mathcal{Y}_k} y .$$"),
     stops=(r"When $\mathcal{Y}_k$ is empty ($a$ is a solution vector), or when the step "
            r"$\big\|\eta(k) \sum_{y \in \mathcal{Y}_k} y\big\|$ falls below a threshold $\theta$ (the notes' "
            r"Algorithm 3; with $\theta = 0$ only a solution stops it)."),
     guarantee=_BATCH_THEOREM,
     quote=(r"$a(k+1) = a(k) + \eta(k) \sum_{y \in Y_k} y$ […] until $\eta(k) \sum_{\mathbf{y} \in "
            r"\mathcal{Y}_k} \mathbf{y} < \theta$"),
     quote_seed=SEED003, quote_where="Batch perceptron algorithm (Algorithm 3)",
     errata=("alg3-criterion",), instance="batch_monitor")

_add("batch-pla",
     problem=_SEPARABLE_000.replace(r"\langle w, x_i \rangle", r"w^T x_i").replace(
         r"\langle w, x \rangle", r"w^T x"),
     criterion=(r"Seed 001 minimizes the in-sample error $E_{\text{in}}(w) = \frac{1}{N} \sum_n "
                r"[\![ \operatorname{sign}(w^T x_n) \ne y_n ]\!]$, which has no useful gradient; its batch PLA "
                r"steps along the perceptron criterion instead, $$J(w) = \frac{1}{N} \sum_{\operatorname{sign}"
                r"(w^T x_i) \ne y_i} -y_i\, w^T x_i \ \ge 0 ,$$ zero exactly when no sample is misclassified."),
     argument=(r"On a region where the misclassified set is fixed, "
               r"$$-\nabla J(w) = \frac{1}{N} \sum_{\operatorname{sign}(w^T x_i) \ne y_i} y_i x_i = \Delta ,$$ "
               r"the vector the algorithm accumulates. A step $w \leftarrow w + \alpha \Delta$ is gradient descent "
               r"with learning rate $\alpha$; it is the batch perceptron (seed 003, Algorithm 3) with "
               r"$\eta = \alpha / N$."),
     rule=(r"Start from $w = 0$. Each iteration: $\Delta \leftarrow 0$; for $i = 1, \dots, N$, if "
           r"$\operatorname{sign}(w^T x_i) \ne y_i$ then $\Delta \leftarrow \Delta + y_i x_i$; then "
           r"$\Delta \leftarrow \Delta / N$ and $$w \leftarrow w + \alpha \Delta .$$ "
           r"A score $w^T x_i = 0$ has sign $0 \ne y_i$, so it counts as misclassified."),
     stops=(r"While $\|\Delta\|_2 > \epsilon$ it continues. With $\epsilon = 0$ it stops exactly when nothing is "
            r"misclassified. With $\epsilon > 0$ it may stop early, or, since misclassified samples can cancel "
            r"in $\Delta$, stop at $\Delta = 0$ with mistakes left."),
     guarantee=(r"Batch PLA is seed 003's batch perceptron with $\eta = \alpha / N$, written with $w$ for $a$ and "
                r"$y_i x_i$ for the normalized samples $y_i$; the batch theorem, in that notation:\n\n"
                + _BATCH_THEOREM),
     quote=(r"if $sign(\vec{w}^T \cdot \vec{x_i}) \neq y_i$, then $\Delta \leftarrow \Delta + y_i \vec{x_i}$; "
            r"$\Delta \leftarrow \frac{\Delta}{N}$; $\vec{w} \leftarrow \vec{w} + \alpha \Delta$ while "
            r"$||\Delta||_2 > \epsilon$"),
     quote_seed=SEED001, quote_where="Batch PLA",
     errata=("seed001-batch-pla-reset", "seed001-batch-pla-cancel"), instance="batch_monitor")

_add("perceptron-gd",
     problem=_SEPARABLE_000.replace(r"\langle w, x_i \rangle", r"x_i \cdot w").replace(
         r"\langle w, x \rangle", r"x \cdot w"),
     criterion=(r"Seed 002 revises the goal: find $w$ that minimizes the *risk* "
                r"$$R(w) = \sum_{i \in V} -y_i\, x_i \cdot w, \qquad V = \{ i : y_i\, x_i \cdot w < 0 \},$$ "
                r"a sum of positive terms, zero exactly when no sample is strictly misclassified. Since "
                r"$R(0) = 0$ too, the notes start from an arbitrary $w \ne 0$, for example some $y_i x_i$."),
     argument=(r"With $\nabla_w (z \cdot w) = z$ (seed 002), on a region where $V$ is fixed "
               r"$$\nabla R(w) = \sum_{i \in V} -y_i x_i .$$ "
               r"Walk downhill, in the direction of steepest descent $-\nabla R(w)$, with step size $\xi > 0$. "
               r"In $w$-space each sample is a hyperplane $\{w : x_i \cdot w = 0\}$ with normal $x_i$, and a "
               r"good $w$ lies on the positive side of every $y_i x_i$ (seed 002's duality)."),
     rule=(r"Start from $w = y_1 x_1$ (any $w \ne 0$ will do). While $R(w) > 0$: "
           r"$$V = \{ i : y_i\, x_i \cdot w < 0 \}, \qquad w \leftarrow w + \xi \sum_{i \in V} y_i x_i .$$"),
     stops=(r"When $R(w) = 0$: no sample has $y_i\, x_i \cdot w < 0$. A sample exactly on the hyperplane has "
            r"$R$-term $0$ and does not move $w$, so the stop can leave samples on the boundary; a strict "
            r"separator needs every $y_i\, x_i \cdot w > 0$."),
     guarantee=(r"This is the batch perceptron with $\eta = \xi$, written with $w$ for $a$ and $y_i x_i$ for the "
                r"normalized samples $y_i$. From the start $w = y_1 x_1 \ne 0$ the two facts below still hold at "
                r"every iteration; the bound on $M$ then comes from the quadratic inequality they give (its largest "
                r"root) rather than from the closed form.\n\n" + _BATCH_THEOREM),
     quote=(r"goal, revised: find $w$ that minimizes $R(w) = \sum_{i \in V} -y_i x_i \cdot w$, "
            r"$V = \text{set of } i \text{ where } y_i x_i \cdot w < 0$ […] $w = w + \xi \sum_{i \in V} y_i x_i$"),
     quote_seed=SEED002, quote_where="Perceptron Algo Continued: gradient descent on R",
     errata=("perceptron-gd-stop",), instance="batch_monitor")

_add("voted-perceptron",
     problem=_SEPARABLE_000 + (r" The voted perceptron also wants a good classifier when the data are *not* "
                               r"separable, where the perceptron's $w$ never settles."),
     criterion=(r"The same perceptron criterion (the weight vectors are the perceptron's). What changes is the "
                r"prediction: every intermediate $w_m$ is kept with its *survival count* $c_m$, the number of "
                r"rounds it classified correctly before it was replaced, and a vector that survived long is "
                r"trusted more."),
     argument_title=GEOMETRY,
     argument=(r"A $w_m$ that made no mistake for $c_m$ rounds has been tested $c_m$ times; letting each $w_m$ "
               r"cast $c_m$ votes weights the classifiers by evidence. The prediction is a weighted majority of "
               r"$m$ hyperplanes, so its decision boundary is in general *not* a hyperplane (seed 000's "
               r"exercise)."),
     rule=(r"Run the perceptron from $w_1 = 0$, $m = 1$, $c_1 = 1$. On a mistake, "
           r"$y_t \langle w_m, x_t \rangle \le 0$: $w_{m+1} = w_m + y_t x_t$, $m \leftarrow m + 1$, "
           r"$c_m = 1$; otherwise $c_m \leftarrow c_m + 1$. Output the list $(w_1, c_1), \dots, (w_m, c_m)$ "
           r"and predict $$\hat y(x) = \operatorname{sign}\Big( \sum_{i=1}^m c_i \operatorname{sign}"
           r"\langle w_i, x \rangle \Big).$$"),
     stops=(r"After a fixed number of passes over the data (the weights are meant for data that may not be "
            r"separable), or earlier when a pass makes no mistake."),
     guarantee=(r"The sequence $w_1, w_2, \dots$ is exactly the perceptron's, so on separable data the "
                r"perceptron theorem bounds the number of mistakes: $m - 1 \le R^2 \|w^*\|^2 / \gamma^2$. "
                r"Beyond that the voted perceptron carries a generalization guarantee (Freund and Schapire, 1999) "
                r"that is not part of the notes.\n\n" + _THEOREM.split("*Proof.*")[0]),
     quote=(r"Output $(w_1, c_1), (w_2, c_2), \dots, (w_m, c_m)$. $c_m$ is a count of how long $w_m$ survived "
            r"as a classifier […] $\text{sign} \left( \sum_{i=1}^m c_i \text{sign}(\langle w_i, x \rangle) "
            r"\right)$"),
     quote_seed=SEED000, quote_where="Voted Perceptron",
     errata=("seed000-index-meaning",), instance="voted")

_add("averaged-perceptron",
     problem=DERIVATIONS["voted-perceptron"].problem,
     criterion=(r"The same run as the voted perceptron, with the same survival counts $c_m$; only the prediction "
                r"changes, to one that needs a single vector instead of all $m$ of them."),
     argument_title=GEOMETRY,
     argument=(r"Replace the vote of signs by the sign of the weighted sum of scores: "
               r"$$\sum_{i=1}^m c_i \langle w_i, x \rangle = \left\langle \sum_{i=1}^m c_i w_i,\ x \right\rangle "
               r"= \langle \bar w, x \rangle$$ by linearity of the inner product. So the averaged classifier is "
               r"one hyperplane, with normal $\bar w = \sum_i c_i w_i$ (an unnormalized average of the "
               r"$w_i$, each weighted by how long it survived)."),
     rule=(r"Run the voted perceptron; output $\bar w = \sum_{i=1}^m c_i w_i$ and predict "
           r"$$\hat y(x) = \operatorname{sign} \langle \bar w, x \rangle .$$"),
     stops=DERIVATIONS["voted-perceptron"].stops,
     guarantee=(r"The $w_i$ are the perceptron's, so the perceptron theorem bounds the number of mistakes made "
                r"while training on separable data; the averaged vector itself carries no separate theorem in "
                r"the notes. On separable data a pass with no mistake ends the run with $w_m$ a separator, and "
                r"$\bar w$ is checked against the data like any other answer.\n\n" + _THEOREM.split("*Proof.*")[0]),
     quote=(r"Averaged Perceptron uses the same algorithm as voted perceptron, but the classification rule is "
            r"different. […] $\text{Output } \operatorname{sign} \left( \sum_{i=1}^m c_i w_i, x \right)$"),
     quote_seed=SEED000, quote_where="Voted and Averaged Perceptron",
     errata=("seed000-averaged-vector",), instance="averaged")

_add("pocket",
     problem=(r"The data may *not* be linearly separable (seed 001: \"In practice perfectly linearly separable data "
              r"is rare\"). Find the $w$ with the fewest training mistakes."),
     criterion=(r"The in-sample error $$E_{\text{in}}(w) = \frac{1}{N} \sum_{n=1}^N [\![ \operatorname{sign}"
                r"(w^T x_n) \ne y_n ]\!] .$$ Minimizing it exactly is NP-hard in general (seed 000), and it "
                r"is piecewise constant, so no gradient helps."),
     argument_title=GEOMETRY,
     argument=(r"The perceptron keeps moving on non-separable data and its current $w$ may be worse than an "
               r"earlier one. Let it explore, and keep in a *pocket* the best vector seen so far, measured by "
               r"$E_{\text{in}}$ on the whole training set: the pocket can only improve."),
     rule=(r"Start from $w(1) = 0$ with the pocket $\hat w = w(1)$. For $t = 1, \dots, T$: run the perceptron "
           r"for one update, $w(t+1) = w(t) + y_i x_i$ at the next misclassified sample; evaluate "
           r"$E_{\text{in}}(w(t+1))$; and $$E_{\text{in}}(w(t+1)) < E_{\text{in}}(\hat w) \;\Longrightarrow\; "
           r"\hat w \leftarrow w(t+1) .$$"),
     stops=r"After $T$ updates, or earlier when $E_{\text{in}} = 0$ (the data were separable after all).",
     guarantee=(r"**Invariant.** After step $t$, $E_{\text{in}}(\hat w) = \min_{s \le t+1} E_{\text{in}}(w(s))$: "
                r"the pocket holds the best vector the perceptron visited. *Proof:* by induction — the pocket is "
                r"replaced exactly when the new vector is strictly better. $\square$ Nothing more is promised: "
                r"the best vector visited need not be the best vector there is."),
     quote=(r"if $E_{in}(\vec{w}(t+1)) < E_{in}(\vec{w}(t))$, then $\vec{w} \leftarrow \vec{w}(t+1)$ […] On "
            r"termination, $\vec{w}$ is the best line found in $T$ steps."),
     quote_seed=SEED001, quote_where="Pocket Algorithm",
     errata=("pocket-comparison",), instance="pocket")

_RELAX_CRIT = (
    r"Seed 003 compares three criteria on the set $\mathcal{Y}$ of samples with $a^t y \le b$: "
    r"$$J_p(a) = \sum_{y \in \mathcal{Y}} (-a^t y), \qquad J_q(a) = \sum_{y \in \mathcal{Y}} (a^t y)^2, \qquad "
    r"J_r(a) = \frac12 \sum_{y \in \mathcal{Y}} \frac{(a^t y - b)^2}{\|y\|^2} .$$ "
    r"$J_q$ is smooth but is dominated by the longest samples and is minimized by $a = 0$. $J_r$ fixes both: "
    r"the margin $b > 0$ excludes $a = 0$, and dividing by $\|y\|^2$ makes each term the squared distance from "
    r"$a$ to the hyperplane $a^t y = b$ in weight space.")

_RELAX_GRAD = (
    r"On a region where $\mathcal{Y}$ is fixed, $$\nabla J_r(a) = \sum_{y \in \mathcal{Y}} \frac{a^t y - b}"
    r"{\|y\|^2}\, y .$$ Geometrically, the step $\eta \frac{b - a^t y}{\|y\|^2} y$ moves $a$ a fraction "
    r"$\eta$ of the way to the hyperplane $a^t y = b$, perpendicularly: after it, "
    r"$$a^t(k+1)\, y - b = (1 - \eta)\left(a^t(k)\, y - b\right).$$ "
    r"With $0 < \eta < 1$ the sample is still short of $b$ (*under-relaxation*), with $\eta = 1$ it lands on "
    r"$a^t y = b$, with $1 < \eta < 2$ it passes it (*over-relaxation*); $\eta \ge 2$ no longer reduces the "
    r"distance.")

_add("single-sample-relaxation",
     problem=DERIVATIONS["variable-increment"].problem,
     criterion=_RELAX_CRIT, argument=_RELAX_GRAD,
     rule=(r"Visit the samples cyclically; when $a^t y^k < b$ (a sample inside the margin), "
           r"$$a(k+1) = a(k) + \eta\, \frac{b - a^t(k)\, y^k}{\|y^k\|^2}\, y^k, \qquad 0 < \eta < 2 .$$"),
     stops=r"When a full pass finds $a^t y \ge b$ for every sample.",
     guarantee=(r"**The relaxation identity** (seed 003, \"Geometric explanation\"): every update satisfies "
                r"$a^t(k+1) y^k - b = (1 - \eta)(a^t(k) y^k - b)$. *Proof:* "
                r"$a^t(k+1) y^k = a^t(k) y^k + \eta \frac{b - a^t(k) y^k}{\|y^k\|^2} \|y^k\|^2$; subtract $b$. "
                r"$\square$\n\n**Theorem** (Duda, Hart and Stork, section 5.6). For linearly separable samples "
                r"and $0 < \eta < 2$, single-sample relaxation converges to a solution of $a^t y_i \ge b$; each "
                r"correction brings $a$ closer to every such solution. The perceptron mistake bound does not "
                r"apply as stated, since the step length varies."),
     quote=(r"$\mathbf{a}(k+1) = \mathbf{a}(k) + \eta \frac{b - \mathbf{a}^t(k)\mathbf{y}^k}{\|\mathbf{y}^k\|^2} "
            r"\mathbf{y}^k$ […] $a^{t}(k+1)y^{k}-b=(1-\eta)(a^{t}(k)y^{k}-b) \ (0<\eta<2)$"),
     quote_seed=SEED003, quote_where="Single-sample relaxation with margin (Algorithm 9)",
     errata=("alg9-listing",), instance="relaxation")

_add("batch-relaxation",
     problem=DERIVATIONS["variable-increment"].problem,
     criterion=_RELAX_CRIT, argument=_RELAX_GRAD,
     rule=(r"At iteration $k$ collect $\mathcal{Y}_k = \{ y : a^t y < b \}$ and take a gradient step on $J_r$: "
           r"$$a \leftarrow a + \eta(k) \sum_{y \in \mathcal{Y}_k} \frac{b - a^t y}{\|y\|^2}\, y .$$"),
     stops=(r"When $\mathcal{Y}_k$ is empty: every sample has $a^t y \ge b$. The batch step corrects all "
            r"samples at once, so the margin can be approached without ever being reached; a run must then be "
            r"bounded."),
     guarantee=(r"$J_r \ge 0$ and the step is $-\eta(k) \nabla J_r(a)$, a gradient-descent step on $J_r$; with a "
                r"single sample in $\mathcal{Y}_k$ the relaxation identity "
                r"$a^t(k+1) y - b = (1 - \eta)(a^t(k) y - b)$ holds exactly. Convergence to a solution for "
                r"$0 < \eta < 2$ is the relaxation theorem of Duda, Hart and Stork (section 5.6); the perceptron "
                r"mistake bound does not cover relaxation."),
     quote=(r"$J_r(a) = \frac{1}{2} \sum_{y \in Y} \frac{(a^t y - b)^2}{\|y\|^2}$ […] "
            r"$\mathbf{a} \leftarrow \mathbf{a} + \eta(k) \sum_{\mathbf{y} \in \mathcal{Y}} \frac{b - "
            r"\mathbf{a}^t \mathbf{y}}{\|\mathbf{y}\|^2} \mathbf{y}$"),
     quote_seed=SEED003, quote_where="Batch relaxation with margin (Algorithm 8)",
     errata=("alg8-misclassified",), instance="criterion_value")

_add("balanced-winnow",
     problem=(r"Two classes, labels $z_k = \pm 1$, augmented samples $y_k$. Find weights that classify every "
              r"sample: $\operatorname{sign}[(a^+ - a^-)^t y_k] = z_k$. Winnow keeps two *positive* weight "
              r"vectors $a^+$ and $a^-$; their difference is the classifier."),
     criterion=(r"The number of misclassified samples, corrected one at a time; unlike the perceptron the "
                r"correction is *multiplicative*: weights are multiplied, never added to, so they stay positive "
                r"and irrelevant features are damped exponentially fast."),
     argument_title=GEOMETRY,
     argument=(r"A misclassified positive sample ($z_k = +1$) needs a larger score $(a^+ - a^-)^t y_k$. "
               r"Multiplying $a_i^+$ by $\alpha^{y_{k,i}}$ with $\alpha > 1$ enlarges exactly the weights of "
               r"features where $y_{k,i} > 0$ and shrinks those where $y_{k,i} < 0$; multiplying $a_i^-$ by "
               r"$\alpha^{-y_{k,i}}$ does the opposite to the negative weights. Both raise the score. A negative "
               r"sample gets the mirror image. In short every factor is $\alpha^{\pm z_k y_{k,i}}$."),
     rule=(r"Start from positive $a^+$, $a^-$ (here all ones) and visit the samples cyclically. If "
           r"$\operatorname{sign}[(a^+ - a^-)^t y_k] \ne z_k$ (a tie counts as a mistake), then for all $i$ "
           r"$$a_i^+ \leftarrow \alpha^{+z_k y_{k,i}}\, a_i^+, \qquad a_i^- \leftarrow \alpha^{-z_k y_{k,i}}\, "
           r"a_i^- .$$"),
     stops="When a full pass makes no mistake. " + _CYCLE_STOP.split(" A single-sample")[0],
     guarantee=(r"Winnow's mistake bound (Littlestone, 1988) grows with the logarithm of the number of features "
                r"for sparse separators; it is not in the notes, and the perceptron theorem does not apply to "
                r"multiplicative updates. What is guaranteed here is the answer itself: when the run stops, "
                r"every sample satisfies $\operatorname{sign}[(a^+ - a^-)^t y_k] = z_k$, checked exactly on the "
                r"data."),
     quote=(r"if $\operatorname{sign}[\mathbf{a}^{+t}\mathbf{y}_{k} - \mathbf{a}^{-t}\mathbf{y}_{k}] \neq z_{k}$ "
            r"(pattern misclassified) then if $z_{k} = +1$ then $a_{i}^{+} \leftarrow \alpha^{+y_{i}}a_{i}^{+}; "
            r"\ a_{i}^{-} \leftarrow \alpha^{-y_{i}}a_{i}^{-}$ for all $i$"),
     quote_seed=SEED003, quote_where="Balanced Winnow (Algorithm 7)",
     errata=("winnow-exponent",), instance="separates")

_add("threshold-unit",
     problem=(r"The perceptron as Mitchell (1997, section 4.4.2) and Rosenblatt state it: a unit computes "
              r"$o = 1$ if $w \cdot \tilde x \ge 0$ and $o = 0$ otherwise (courses differ on the tie "
              r"$w \cdot \tilde x = 0$; some use $> 0$), on the augmented input "
              r"$\tilde x = (1, x)$, and each sample has a target $t \in \{0, 1\}$. Find $w$ with $o = t$ on "
              r"every sample. It is seed 000's problem with labels $y = 2t - 1$."),
     criterion=(r"The same perceptron criterion, written with $0/1$ targets: the error $t - o$ is $+1$ on a "
                r"missed positive, $-1$ on a missed negative and $0$ on a correct sample."),
     argument=(r"The perceptron training rule $w_i \leftarrow w_i + \eta (t - o) x_i$ is the perceptron step "
               r"$w \leftarrow w + \eta\, y\, \tilde x$ exactly when the sample is misclassified, because "
               r"$t - o = y$ there and $t - o = 0$ otherwise: no test is needed, the error term does it."),
     rule=(r"Start from $w = 0$ and visit the samples cyclically: "
           r"$$o = [\, w \cdot \tilde x_i \ge 0 \,], \qquad w \leftarrow w + \eta\, (t_i - o)\, \tilde x_i .$$ "
           r"With the strict test $o = [\, w \cdot \tilde x_i > 0 \,]$ a sample on the boundary counts as "
           r"negative instead, which changes which samples are corrected."),
     stops=("When a full pass has $o = t$ on every sample. " + _CYCLE_STOP),
     guarantee=(r"With $y_i = 2t_i - 1$ every correction is a perceptron mistake on the sample $y_i \tilde x_i$ "
                r"(both tie rules make the corrected sample have $y_i\, w \cdot \tilde x_i \le 0$), so the "
                r"perceptron theorem applies: $K \le R^2 \|w^*\|^2 / \gamma^2$ for any strict separator $w^*$.\n\n"
                + _THEOREM.split("*Proof.*")[0]),
     quote=(r"If $y_t \langle w_t, x_t \rangle \leq 0$ then $w_{t+1} = w_t + y_t x_t$ (the notes' $\pm 1$ form "
            r"of the rule Mitchell writes as $w_i \leftarrow w_i + \eta (t - o) x_i$)"),
     quote_seed=SEED000, quote_where="The Perceptron Algorithm", instance="threshold")

# ---- minimum squared error

_MSE_PROBLEM = (
    r"Seed 003: instead of inequalities $a^t y_i > 0$, ask for equations $a^t y_i = b_i$ with chosen positive "
    r"margins $b_i$ (all $1$ unless said otherwise). With the rows $y_i^t$ stacked into the $n \times \hat d$ "
    r"matrix $Y$ this is $$Y a = b .$$ With more samples than unknowns it has in general no exact solution, so "
    r"we ask for the $a$ that comes closest.")
_MSE_CRITERION = (
    r"The sum of squared errors $$J_s(a) = \|Y a - b\|^2 = \sum_{i=1}^n (a^t y_i - b_i)^2 ,$$ a convex "
    r"quadratic in $a$, smooth everywhere: unlike $J_p$ it looks at *every* sample, correctly classified or not.")
_MSE_GRADIENT = (
    r"Differentiating each square, $$\nabla J_s(a) = \sum_{i=1}^n 2 (a^t y_i - b_i)\, y_i = 2 Y^t (Y a - b).$$ "
    r"Setting it to zero gives the *normal equations* $Y^t Y a = Y^t b$. When $Y^t Y$ is invertible, "
    r"$a = (Y^t Y)^{-1} Y^t b = Y^+ b$ with the pseudoinverse $Y^+ = (Y^t Y)^{-1} Y^t$; in general "
    r"$Y^+ = \lim_{\varepsilon \to 0} (Y^t Y + \varepsilon I)^{-1} Y^t$, the Moore-Penrose inverse, and "
    r"$Y^+ b$ is the minimizer of least length.")

_add("mse",
     problem=_MSE_PROBLEM, criterion=_MSE_CRITERION, argument=_MSE_GRADIENT,
     rule=r"$$a = Y^+ b .$$ One linear-algebra step; no iteration.",
     stops=r"At once: the answer is a closed form.",
     guarantee=(r"**Theorem.** $a = Y^+ b$ minimizes $J_s$. *Proof:* the residual $e = Y a - b$ satisfies "
                r"$Y^t e = 0$ (that is the normal equations), so for any $a'$, "
                r"$$\|Y a' - b\|^2 = \|Y(a' - a) + e\|^2 = \|Y(a' - a)\|^2 + 2 (a' - a)^t Y^t e + \|e\|^2 "
                r"\ge \|e\|^2 . \ \square$$ "
                r"It does **not** promise a separating vector: $J_s$ is small when the scores are near $b$, and "
                r"a separable set can have $Y^+ b$ misclassify a sample. When $e = 0$, however, every "
                r"$a^t y_i = b_i > 0$ and $a$ separates."),
     quote=(r"$Y^{t} Ya = Y^{t} b \longrightarrow a = (Y^{t} Y)^{-1} Y^{t} b = Y^{+} b$ […] "
            r"$\mathbf{a} = \mathbf{Y}^{\dagger}\mathbf{b} = (11/3, -4/3, -2/3)^{t}$; Hyperplane: "
            r"$4x_1 + 2x_2 - 11 = 0$"),
     quote_seed=SEED003, quote_where="Pseudoinverse (and its example)",
     errata=("seed003-pinv-limit-variable",), instance="mse")

_add("widrow-hoff",
     problem=_MSE_PROBLEM, criterion=_MSE_CRITERION, argument=_MSE_GRADIENT + (
         r" Computing $Y^+$ can be avoided: descend the gradient instead."),
     rule=(r"Start from $a(1)$ (here $0$) and step against the gradient with a decreasing step "
           r"$\eta(k) = \eta(1)/k$: $$a(k+1) = a(k) - \eta(k)\, Y^t (Y a(k) - b) .$$ "
           r"(The constant $2$ of the gradient is absorbed into $\eta$.)"),
     stops=(r"When the step $\|\eta(k)\, Y^t (Y a(k) - b)\|$ falls below a threshold $\theta$, when the "
            r"gradient is exactly $0$, or after a fixed number of steps. The limit is reached only in the "
            r"limit: exact iterates approach $Y^+ b$ without arriving."),
     guarantee=(r"**Theorem** (seed 003). With $\eta(k) = \eta(1)/k$ and any $\eta(1) > 0$, the sequence "
                r"converges to a vector $a$ satisfying $Y^t (Y a - b) = 0$ — a minimizer of $J_s$. *Why:* "
                r"$a(k+1) - a^* = (I - \eta(k) Y^t Y)(a(k) - a^*)$ for a minimizer $a^*$; once "
                r"$\eta(k) < 2/\lambda_{\max}(Y^t Y)$ each factor shrinks the error along every eigenvector "
                r"with a positive eigenvalue, and $\sum_k \eta(k) = \infty$ drives the product to $0$. "
                r"$\square$ (The notes' sentence ends before naming the limit.)"),
     quote=(r"$a(k+1) = a(k) - \eta(k) Y^t (Ya(k) - b)$. If $\eta(k) = \eta(1)/k$, where $\eta(1)$ is any "
            r"positive constant, then this rule generates a sequence of weight vectors that converges to a "
            r"limiting vector $\mathbf{a}$ satisfying"),
     quote_seed=SEED003, quote_where="Minimum squared error: the gradient rule", instance="approach")

_add("lms",
     problem=_MSE_PROBLEM, criterion=_MSE_CRITERION, argument=_MSE_GRADIENT + (
         r" The gradient is a sum of one term per sample, $2(a^t y_k - b_k)\, y_k$; the Widrow-Hoff or *least "
         r"mean squares* rule steps along one term at a time (stochastic gradient descent)."),
     rule=(r"Visit the samples cyclically; at step $k$ with sample $y^k$: "
           r"$$a(k+1) = a(k) + \eta(k)\, \big(b_k - a(k)^t y^k\big)\, y^k, \qquad \eta(k) = \eta(1)/k .$$"),
     stops=(r"When the correction $\|\eta(k) (b_k - a^t y^k)\, y^k\|$ falls below a threshold $\theta$, or after "
            r"a fixed number of steps. Unlike the perceptron, LMS corrects *every* sample whose score differs "
            r"from $b_k$, so it never stops by itself."),
     guarantee=(r"With $\eta(k) = \eta(1)/k$ the LMS iterates converge to a solution of the normal equations "
                r"$Y^t (Y a - b) = 0$ (Duda, Hart and Stork, section 5.8.4): the step sizes satisfy "
                r"$\sum \eta(k) = \infty$ and $\sum \eta(k)^2 < \infty$. The limit minimizes $J_s$; like the "
                r"pseudoinverse it need not separate."),
     quote=(r"$\mathbf{a}(k+1) = \mathbf{a}(k) + \eta(k)(b_k - \mathbf{a}(k)^t \mathbf{y}^k) \mathbf{y}^k$ […] "
            r"until $\eta(k)(b_k - \mathbf{a}^t \mathbf{y}^k) \mathbf{y}^k < \theta$"),
     quote_seed=SEED003, quote_where="Least Mean Squared (Algorithm 10)",
     errata=("seed003-lms-stop",), instance="approach")

_HK_PROBLEM = (
    r"Seed 003: if the samples are separable there is an $\hat a$ with $Y \hat a = \hat b > 0$, but we do not "
    r"know $\hat b$. Let **both** $a$ and the margin vector $b > 0$ vary.")
_HK_CRITERION = (
    r"$$J_s(a, b) = \|Y a - b\|^2 \qquad \text{over } a \text{ and } b > 0 .$$ "
    r"If the samples are separable its minimum is $0$, and an $a$ that reaches it has $Y a = b > 0$: a "
    r"separating vector. $b$ must stay positive and must not shrink to $0$.")
_HK_GRADIENT = (
    r"$$\nabla_a J_s = 2 Y^t (Y a - b), \qquad \nabla_b J_s = -2 (Y a - b) = -2 e .$$ "
    r"For fixed $b$ the best $a$ is $a = Y^+ b$. For $b$, descend the gradient but never decrease a "
    r"component: keep only the part of $-\nabla_b J_s$ that is positive, "
    r"$$b \leftarrow b - \frac{\eta}{2} \left[ \nabla_b J_s - |\nabla_b J_s| \right] = b + \eta (e + |e|) = "
    r"b + 2\eta\, e^+, \qquad e^+ = \tfrac12 (e + |e|) ,$$ "
    r"which raises $b_i$ where $a^t y_i$ already exceeds it and leaves it where it does not.")

_add("ho-kashyap",
     problem=_HK_PROBLEM, criterion=_HK_CRITERION, argument=_HK_GRADIENT,
     rule=(r"Start from $b(1) > 0$ (here all ones) and $a(1) = Y^+ b(1)$. Repeat: "
           r"$$e = Y a - b, \quad e^+ = \tfrac12 (e + |e|), \quad b \leftarrow b + 2\eta\, e^+, \quad "
           r"a \leftarrow Y^+ b ,$$ with $0 < \eta \le 1$."),
     stops=(r"Three ways. $Y a > 0$: $a$ separates (in particular $e = 0$). $e \le 0$ with $e \ne 0$: the "
            r"samples are **not** separable. Otherwise after a fixed number of iterations."),
     guarantee=(r"**Non-separability proof** (seed 003's second bullet). Since $a = Y^+ b$, "
                r"$Y^t e = Y^t (Y Y^+ b - b) = 0$. If some $\hat a$ had $Y \hat a > 0$ then "
                r"$0 = \hat a^t Y^t e = (Y \hat a)^t e$, a sum of products of positive numbers with numbers "
                r"$\le 0$, not all zero — negative. Contradiction: $e \le 0$, $e \ne 0$ proves that no "
                r"separating vector exists. $\square$\n\n"
                r"**Convergence** (Duda, Hart and Stork, section 5.9.2). For $0 < \eta \le 1$ and separable "
                r"samples, $\|e(k)\|^2$ decreases and the procedure finds a solution in finitely many steps "
                r"or $e(k) \to 0$."),
     quote=(r"$\mathbf{b}(k+1) = \mathbf{a}(k) + 2\eta(k)\mathbf{e}^{+}(k)$, where $a(k) = Y^{\dagger}b(k)$ […] "
            r"$e(k)=0$ and we have a solution; $e(k) \le 0$ and we have proof that the samples are not "
            r"linearly separable."),
     quote_seed=SEED003, quote_where="Ho-Kashyap Procedures (Algorithm 11)",
     errata=("seed003-ho-kashyap-b-update", "seed003-hk-nonseparable-untested"), instance="ho_kashyap")

_add("ho-kashyap-mod1",
     problem=_HK_PROBLEM, criterion=_HK_CRITERION, argument=_HK_GRADIENT + (
         r" Modification I updates $a$ incrementally instead of recomputing $Y^+ b$: since $Y^+ e = Y^+(Ya - b) "
         r"= 0$ when $a = Y^+ b$, and $e + |e| = 2 e^+$, the change of $Y^+ b$ after $b$ gains "
         r"$\eta (e + |e|)$ is $\eta\, Y^+ (e + |e|) = \eta\, Y^+ |e|$."),
     rule=(r"$b(1) > 0$, $a(1) = Y^+ b(1)$, and $$b(k+1) = b(k) + \eta\, (e(k) + |e(k)|), \qquad "
           r"a(k+1) = a(k) + \eta\, Y^+ |e(k)| .$$"),
     stops=DERIVATIONS["ho-kashyap"].stops,
     guarantee=(r"By induction $a(k) = Y^+ b(k)$ at every step (the update of $a$ is $Y^+$ applied to the update "
                r"of $b$, using $Y^+ e = 0$), so this is Ho-Kashyap with $2\eta\, e^+ = \eta(e + |e|)$, and the "
                r"same non-separability proof applies: $e \le 0$, $e \ne 0$ proves that no separating vector "
                r"exists. " + DERIVATIONS["ho-kashyap"].guarantee.split("**Convergence**")[1].join(
                    ["**Convergence**", ""])),
     quote=(r"$\mathbf{b}(k+1) = \mathbf{b}(k) + \eta(\mathbf{e}(k) + |\mathbf{e}(k)|)$, "
            r"$\mathbf{a}(k+1) = \mathbf{a}(k) + \eta \mathbf{Y}^{\dagger} |\mathbf{e}(k)|$ […] It provides "
            r"evidence of nonseparability. But it requires the computation of $Y^+$."),
     quote_seed=SEED003, quote_where="Modification (I)", instance="ho_kashyap")

_add("ho-kashyap-mod2",
     problem=_HK_PROBLEM, criterion=_HK_CRITERION, argument=_HK_GRADIENT + (
         r" Modification II avoids $Y^+$ altogether: $a$ follows a preconditioned gradient step "
         r"$a \leftarrow a - \tfrac{\eta}{2} R\, \nabla_a J_s$ with a constant positive-definite $R$."),
     rule=(r"$b(1) > 0$, $a(1)$ arbitrary (here $0$), and "
           r"$$b(k+1) = b(k) + (e(k) + |e(k)|), \qquad a(k+1) = a(k) + \eta\, R\, Y^t |e(k)| .$$"),
     stops=DERIVATIONS["ho-kashyap"].stops.replace("$e \\le 0$ with $e \\ne 0$: the samples are **not** "
                                                   "separable.", "A proof that the samples are **not** "
                                                                 "separable (a Gordan certificate)."),
     guarantee=(r"**Theorem** (seed 003). With $R = I$ the procedure converges if "
                r"$0 < \eta < 2/\lambda_{\max}$, $\lambda_{\max}$ the largest eigenvalue of $Y^t Y$: then "
                r"$I - \eta Y^t Y$ shrinks the error of $a$ in every direction, as for any gradient method on a "
                r"quadratic. The condition is decided exactly: $\eta < 2/\lambda_{\max}$ iff "
                r"$\tfrac{2}{\eta} I - Y^t Y$ is positive definite, which needs no eigenvalue."),
     quote=(r"$\mathbf{a}(k+1) = \mathbf{a}(k) + \eta \mathbf{R} \mathbf{Y}^t |\mathbf{e}(k)|$ where $R$ is an "
            r"arbitrary, constant, positive-definite matrix. Assuring convergence if "
            r"$0 < \eta < 2/\lambda_{max}$"),
     quote_seed=SEED003, quote_where="Modification (II)", instance="ho_kashyap")

_add("fisher",
     problem=(r"Two classes $D_1$, $D_2$ of $n_1$, $n_2$ samples. Project every sample onto a line, "
              r"$y = w^t x$, and choose the direction $w$ so that the projected classes are as well separated "
              r"as possible; then classify by a threshold $y_0$ on the line."),
     criterion=(r"With the class means $m_i = \frac{1}{n_i} \sum_{x \in D_i} x$, the projected means are "
                r"$\tilde m_i = w^t m_i$, and $$(\tilde m_1 - \tilde m_2)^2 = w^t S_B w, \qquad "
                r"S_B = (m_1 - m_2)(m_1 - m_2)^t .$$ The projected scatter of class $i$ is "
                r"$\tilde s_i^2 = \sum_{x \in D_i} (w^t x - \tilde m_i)^2 = w^t S_i w$ with "
                r"$S_i = \sum_{x \in D_i} (x - m_i)(x - m_i)^t$. Fisher's criterion rewards distant means and "
                r"penalizes spread: $$J(w) = \frac{(\tilde m_1 - \tilde m_2)^2}{\tilde s_1^2 + \tilde s_2^2} = "
                r"\frac{w^t S_B w}{w^t S_W w}, \qquad S_W = S_1 + S_2 .$$ "
                r"$J(c w) = J(w)$ for any $c \ne 0$: only the direction matters."),
     argument=(r"By the quotient rule, $$\nabla J(w) = \frac{2}{(w^t S_W w)^2} \left[ (w^t S_W w)\, S_B w - "
               r"(w^t S_B w)\, S_W w \right],$$ zero exactly when $S_B w = \lambda S_W w$ with "
               r"$\lambda = J(w)$ — a generalized eigenvalue problem. No eigenvalue needs computing: "
               r"$S_B w = (m_1 - m_2)\,\big((m_1 - m_2)^t w\big)$ always points along $m_1 - m_2$, so "
               r"$\lambda S_W w \parallel m_1 - m_2$ and, when $S_W$ is invertible, "
               r"$w \parallel S_W^{-1} (m_1 - m_2)$."),
     rule=(r"$$w = S_W^{-1} (m_1 - m_2), \qquad \text{decide } \omega_1 \text{ if } w^t x > y_0, \text{ else } "
           r"\omega_2 ,$$ with a threshold such as the midpoint of the projected means, "
           r"$y_0 = \tfrac12 (\tilde m_1 + \tilde m_2)$, or their weighted mean "
           r"$\tilde m = (n_1 \tilde m_1 + n_2 \tilde m_2)/(n_1 + n_2)$ (the notes list three)."),
     stops=r"At once: a closed form (one linear solve).",
     guarantee=(r"**Theorem.** If $S_W$ is positive definite, $w^* = S_W^{-1}(m_1 - m_2)$ maximizes $J$, with "
                r"$$J(w^*) = (m_1 - m_2)^t S_W^{-1} (m_1 - m_2).$$ *Proof:* write $\delta = m_1 - m_2$. For any "
                r"$w \ne 0$, Cauchy-Schwarz in the inner product $\langle u, v \rangle = u^t S_W v$ gives "
                r"$(w^t \delta)^2 = \langle w, S_W^{-1} \delta \rangle^2 \le (w^t S_W w)\,(\delta^t S_W^{-1} "
                r"\delta)$, i.e. $J(w) \le \delta^t S_W^{-1} \delta$, with equality iff $w \parallel "
                r"S_W^{-1}\delta$. $\square$ The direction maximizes separation; it does not promise that the "
                r"threshold separates the training samples."),
     quote=(r"A vector $w$ that maximizes $J(w)$ must satisfy $S_B w = \lambda S_W w$ […] the solution for the "
            r"$w$ that optimizes $J(w)$: $w=S_W^{-1}(m_1-m_2)$"),
     quote_seed=SEED003, quote_where="Fisher Linear Discriminant Analysis (FLDA)",
     errata=("seed003-sample-mean", "seed003-fisher-y0-3-sign"), instance="fisher")

_add("linear-machine",
     problem=(r"$c$ classes $\omega_1, \dots, \omega_c$. Seed 003's *linear machine* keeps one linear "
              r"discriminant per class, $g_i(x) = w_i^t y$ on the augmented $y = (1, x)$, and assigns $x$ to "
              r"$\omega_i$ if $g_i(x) > g_j(x)$ for all $j \ne i$. Find $w_1, \dots, w_c$ that classify every "
              r"training sample."),
     criterion=(r"A sample $y$ of class $i$ is classified correctly when $(w_i - w_j)^t y > 0$ for every "
                r"$j \ne i$: $c - 1$ linear inequalities in the stacked vector $\alpha = (w_1, \dots, w_c)$. "
                r"Kesler's construction writes each as $\alpha^t \kappa_{ij} > 0$ with $\kappa_{ij}$ the vector "
                r"holding $y$ in block $i$, $-y$ in block $j$ and $0$ elsewhere — a two-class problem in "
                r"$c \hat d$ dimensions, with the perceptron criterion on the $\kappa_{ij}$."),
     argument=(r"A perceptron step on the violated $\kappa_{ij}$ is $\alpha \leftarrow \alpha + \eta\, \kappa_{ij}$, "
               r"which in blocks reads $w_i \leftarrow w_i + \eta y$ and $w_j \leftarrow w_j - \eta y$: the "
               r"right class's discriminant moves toward the sample, the winning wrong one away from it. The "
               r"boundary between regions $i$ and $j$ is part of the hyperplane $(w_i - w_j)^t y = 0$, at "
               r"distance $(g_i - g_j)/\|w_i - w_j\|$ from $x$."),
     rule=(r"Start from $w_1 = \dots = w_c = 0$ and visit the samples cyclically. For a sample $y$ of class $i$, "
           r"if some $j \ne i$ has $g_j(y) \ge g_i(y)$ (take the largest such $g_j$): "
           r"$$w_i \leftarrow w_i + \eta\, y, \qquad w_j \leftarrow w_j - \eta\, y .$$"),
     stops=r"When a full pass makes no mistake. " + _CYCLE_STOP.split(" A single-sample")[0],
     guarantee=(r"The perceptron theorem applied to Kesler's vectors: if the classes are linearly separable by "
                r"some $\alpha^*$ with $\min \alpha^{*t} \kappa_{ij} = \gamma > 0$, the number of corrections is at "
                r"most $R^2 \|\alpha^*\|^2/\gamma^2$ with $R = \max \|\kappa_{ij}\| = \sqrt{2} \max \|y\|$. The "
                r"decision regions are convex (intersections of half-spaces), which limits what a linear "
                r"machine can separate.\n\n" + _THEOREM.split("*Proof.*")[0]),
     quote=(r"assign $x$ to $\omega_i$ if $g_i(x) > g_j(x) \ \forall\, j \neq i$; in case of ties, the "
            r"classification is undefined. In this case, the classifier is a \"linear machine\"."),
     quote_seed=SEED003, quote_where="The multi-category case", instance="monitor")

_add("one-vs-rest",
     problem=(r"$c$ classes, but only a binary learner. Seed 001: \"Binary classifiers can be combined in a "
              r"chain to handle multiclass problems\"."),
     criterion=(r"For each class $c$ a binary problem: the samples of class $c$ against all the others "
                r"(labels $+1$ and $-1$), each solved by the chosen binary algorithm with its own criterion."),
     argument_title=GEOMETRY,
     argument=(r"Each binary classifier $g_c$ draws a hyperplane between its class and the rest. Where exactly "
               r"one $g_c$ claims a point, that class is the answer; where none or several do, the rule is "
               r"ambiguous — the regions left undecided are the price of combining independent binary "
               r"decisions (the linear machine avoids them by comparing the $g_c$ directly)."),
     rule=(r"Train $g_c$ on $\{+1 \text{ for class } c,\ -1 \text{ otherwise}\}$ for every class; predict "
           r"$$\hat y(x) = c \quad \text{if } g_c(x) > 0 \text{ and } g_{c'}(x) \le 0 \text{ for } c' \ne c .$$"),
     stops=r"When every binary run stops, each by its own rule.",
     guarantee=(r"Each binary run carries its algorithm's guarantee: with the perceptron, every class that is "
                r"linearly separable from the rest is learned in at most $R^2 \|w_c^*\|^2/\gamma_c^2$ mistakes. "
                r"A training sample is then claimed by its own class alone."),
     quote=(r"Binary classifiers can be combined in a chain to handle multiclass problems"),
     quote_seed=SEED001, quote_where="Multiclass Classification", instance="multiclass")

_add("separable",
     problem=(r"Decide whether two classes are linearly separable — seed 000: \"there exists a hyperplane "
              r"separating the + labelled data from the -\" — and prove the answer either way."),
     criterion=(r"With the normalized augmented samples $z_i = y_i \tilde x_i$: is there a $w$ with "
                r"$w^t z_i \ge 1$ for all $i$? (Any strict separator can be scaled to this.) It is a linear "
                r"feasibility problem, a linear program with a zero objective."),
     argument_title=GEOMETRY,
     argument=(r"**Gordan's theorem of the alternative.** Exactly one of these holds: (a) some $w$ has "
               r"$w^t z_i > 0$ for all $i$; (b) some $\lambda \ge 0$, $\lambda \ne 0$, has "
               r"$\sum_i \lambda_i z_i = 0$. They cannot both hold: "
               r"$0 = w^t \sum_i \lambda_i z_i = \sum_i \lambda_i\, w^t z_i > 0$. Geometrically, (b) says the "
               r"origin is a convex combination of the $z_i$, so no half-space through the origin contains "
               r"them all."),
     rule=(r"Solve the linear program; report either a separator $w$ (with $w^t z_i \ge 1$) or multipliers "
           r"$\lambda$ with $$\lambda \ge 0, \quad \sum_i \lambda_i = 1, \quad "
           r"\sum_i \lambda_i y_i \tilde x_i = 0 .$$"),
     stops=r"At once: a linear program has a finite exact answer.",
     guarantee=(r"Either certificate is checked by arithmetic alone — $w^t z_i \ge 1$ for every $i$, or "
                r"$\lambda \ge 0$, $\lambda \ne 0$, $\sum \lambda_i z_i = 0$ — and by Gordan's theorem the two "
                r"cannot both exist, so the checked certificate *proves* the answer."),
     quote=(r"Linear separability: there exists a hyperplane separating the + labelled data from the -."),
     quote_seed=SEED000, quote_where="When does Perceptron Converge?",
     errata=("seed000-augmented-hyperplane",), instance="gordan")

_add("svm-hard",
     problem=_SVM_PROBLEM,
     criterion=(r"$$\min_{w, b}\ \tfrac12 \|w\|^2 \quad \text{subject to} \quad y_i (w \cdot x_i + b) \ge 1, "
                r"\quad i = 1, \dots, n ,$$ a quadratic program in $d + 1$ unknowns with $n$ linear constraints "
                r"(seed 002)."),
     argument_title=GEOMETRY, argument=_SVM_GEOMETRY,
     rule=_svm_rule(""),
     stops=r"At once: the solution is exact, found by solving linear systems, with no iteration to stop.",
     guarantee=_KKT,
     quote=(r"Minimize $\frac{\|w\|}{2}$ Subject to $w_1 x_1^i + \dots + w_n x_n^i + b > 1$, if $y_i = 1$; "
            r"$w_1 x_1^i + \dots + w_n x_n^i + b < -1$, if $y_i = -1$ […] $\alpha_i$ is non-zero iff $x_i$ is a "
            r"support vector"),
     quote_seed=SEED004, quote_where="Optimization problem; Solution to optimization problem",
     errata=("seed004-strict-constraints", "seed004-alpha-iff", "seed002-margin-maximized", "seed004-add-away"),
     instance="svm")

_SOFT_KKT = (
    r"Again convex, so the Karush-Kuhn-Tucker conditions are necessary and sufficient: stationarity "
    r"$w = \sum_i \alpha_i y_i x_i$, $\sum_i \alpha_i y_i = 0$; feasibility $y_i(w \cdot x_i + b) \ge 1 - "
    r"\xi_i$; and complementary slackness $\alpha_i [y_i (w \cdot x_i + b) - 1 + \xi_i] = 0$.")

_add("svm-soft",
     problem=_SVM_PROBLEM + (r" When the classes overlap no hyperplane has every sample outside the margin: "
                             r"allow a violation $\xi_i \ge 0$ per sample and pay for it."),
     criterion=(r"$$\min_{w, b, \xi}\ \tfrac12 \|w\|^2 + C \sum_i \xi_i \quad \text{s.t.} \quad "
                r"y_i (w \cdot x_i + b) \ge 1 - \xi_i, \ \xi_i \ge 0 ,$$ equivalently "
                r"$\tfrac12 \|w\|^2 + C \sum_i \max(0, 1 - y_i (w \cdot x_i + b))$, the *hinge loss*. $C > 0$ "
                r"trades the width of the margin against the violations."),
     argument_title=GEOMETRY,
     argument=_SVM_GEOMETRY + (r" With slacks the Lagrangian also has multipliers $\mu_i \ge 0$ for $\xi_i \ge 0$; "
                               r"$\partial L/\partial \xi_i = C - \alpha_i - \mu_i = 0$ gives the *box* "
                               r"$0 \le \alpha_i \le C$."),
     rule=_svm_rule("") + (r" Samples with $\alpha_i = C$ are allowed inside the margin; their slack is "
                           r"$\xi_i = 1 - y_i (w \cdot x_i + b)$."),
     stops=r"At once: the solution is exact, with no iteration to stop.",
     guarantee=_SOFT_KKT + r" With the hinge loss also $0 \le \alpha_i \le C$ and $\xi_i (C - \alpha_i) = 0$. " + (
         r"Checked exactly, these conditions prove optimality; $w$ is unique."),
     quote=(r"Minimize $\frac{\|w\|^2}{2} + \sum_{i=1}^N \xi_i^2$ Subject to $\xi_i \geq 0$ […] Error term "
            r"always non-negative, $\xi_i \geq 0$; If the point is correctly classified, error term is 0"),
     quote_seed=SEED004, quote_where="Soft margin optimization (the notes square the slacks; this is the hinge)",
     errata=("seed004-soft-margin-c", "seed004-slack-correct"), instance="svm")

_add("svm-soft-l2",
     problem=DERIVATIONS["svm-soft"].problem,
     criterion=(r"Seed 004's soft margin squares the slacks: $$\min_{w, b, \xi}\ \tfrac12 \|w\|^2 + C \sum_i "
                r"\xi_i^2 \quad \text{s.t.} \quad y_i (w \cdot x_i + b) \ge 1 - \xi_i ,$$ with $C = 1$ in the "
                r"notes. A negative $\xi_i$ would only cost more, so $\xi_i \ge 0$ holds at the optimum without "
                r"being imposed."),
     argument_title=GEOMETRY,
     argument=_SVM_GEOMETRY + (r" With squared slacks, $\partial L/\partial \xi_i = 2 C \xi_i - \alpha_i = 0$ "
                               r"gives $\xi_i = \alpha_i / (2C)$: the problem is a hard-margin SVM with the "
                               r"kernel matrix $K + \tfrac{1}{2C} I$."),
     rule=_svm_rule(r" \Big(1 - \frac{\alpha_i}{2C}\Big)"),
     stops=r"At once: the solution is exact, with no iteration to stop.",
     guarantee=_SOFT_KKT + r" With squared slacks also $\xi_i = \alpha_i/(2C)$. Checked exactly, these prove "
                           r"optimality; $w$, $b$ and $\alpha$ are unique.",
     quote=(r"$\text{Minimize } \frac{\|w\|^2}{2} + \sum_{i=1}^N \xi_i^2$ Subject to $\xi_i \geq 0$, "
            r"$\langle w \cdot x \rangle + b > 1 - \xi_i$, if $y_i = 1$"),
     quote_seed=SEED004, quote_where="Soft margin optimization",
     errata=("seed004-soft-margin-c", "seed004-slack-correct"), instance="svm")

_add("feature-map",
     problem=(r"Classes that no hyperplane separates in the plane may be separable after a change of features. "
              r"Seed 004: points inside and outside the unit circle $x^2 + y^2 = 1$."),
     criterion=(r"Choose a map $\varphi$ into a space of more features and apply a linear algorithm there, with "
                r"that algorithm's criterion on $\varphi(x_1), \dots, \varphi(x_n)$."),
     argument_title=GEOMETRY,
     argument=(r"Lift the plane: $\varphi(x, y) = (x, y, x^2 + y^2)$. Points inside the circle get third "
               r"coordinate below $1$, points outside above $1$, so the plane $z = 1$ separates them: a linear "
               r"boundary in feature space is the circle in the input space. In general "
               r"$g(x) = \sum_j w_j f_j(x) + w_0$ (seed 003, generalized linear discriminants) is linear in the "
               r"weights whatever the $f_j$."),
     rule=(r"$$x_i \mapsto \varphi(x_i), \qquad \text{then the chosen linear rule on } \varphi(x_1), \dots, "
           r"\varphi(x_n); \qquad \hat y(x) = \operatorname{sign}(w \cdot \varphi(x) + b) .$$"),
     stops=r"When the linear algorithm stops on the mapped samples.",
     guarantee=(r"Every guarantee of the chosen algorithm holds in feature space. With the perceptron: if the "
                r"mapped samples are separable with margin $\gamma$, at most $R_\varphi^2 \|w^*\|^2/\gamma^2$ "
                r"mistakes, $R_\varphi = \max_i \|\varphi(x_i)\|$.\n\n" + _THEOREM.split("*Proof.*")[0]),
     quote=(r"Transformation $\varphi : (x, y) \mapsto (x, y, x^2 + y^2)$ […] All we need to know is how to "
            r"compute dot products in transformed space"),
     quote_seed=SEED004, quote_where="Geometric transformation; SVM after transformation", instance="monitor")

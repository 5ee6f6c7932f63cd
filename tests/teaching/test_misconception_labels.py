"""Every concept option that names a misconception names the belief that option expresses.

REVIEWED lists, for each concept option with a misconception, the option's text, the
misconception id and the belief that id names. It was reviewed by hand, option by option
(issue 20: about 20 labels named a belief their option does not hold, e.g. "nDCG ignores
the order" labelled "CG depends on the order"). A change to an option or its label fails
here until the table is reviewed again. CHANGED records the labels that review replaced.
"""

from __future__ import annotations

import math

import pytest

from ndcg_core.teaching import exercises as ex
from ndcg_core.teaching.exercises.model import LETTERS

# (exercise, option, option text, misconception id, the belief it names)
REVIEWED = [
    ('lecture-rank-one', 'A', 'Because log2(1) = 0, and a discount of 0 means no discount', 'discount-log2-i', 'the discount 1/log2(i) with rank 1 undiscounted (the Järvelin–Kekäläinen form)'),
    ('lecture-rank-one', 'B', 'Because the discount is 1/i and 1/1 = 1', 'discount-other', 'a different discount'),
    ('lecture-rank-one', 'D', 'Because every discount leaves rank 1 alone by convention', 'rank-one-by-convention', 'the belief that every discount leaves rank 1 alone'),
    ('lecture-code-index', 'A', "A natural-log discount, because Python's math module uses ln", 'log-natural', 'the natural logarithm ln in the discount'),
    ('lecture-code-index', 'C', 'The shifted discount 1/log2(rank + 2)', 'rank-shift', 'every rank shifted by one (1/log2(i+2): rank 1 discounted like rank 2)'),
    ('lecture-code-index', 'D', 'The Järvelin–Kekäläinen discount 1/log2(rank)', 'discount-log2-i', 'the discount 1/log2(i) with rank 1 undiscounted (the Järvelin–Kekäläinen form)'),
    ('lecture-exam-ideal', 'A', "No: sorting the run's labels always overstates nDCG", 'ideal-from-run-always-wrong', 'the belief that an ideal sorted from the run is always wrong'),
    ('lecture-exam-ideal', 'B', 'No: it divides by zero on this list', 'code-divides-always', "the belief that the exam's short code divides by zero on any list"),
    ('lecture-exam-ideal', 'C', 'No: the exam code uses the shifted discount', 'rank-shift', 'every rank shifted by one (1/log2(i+2): rank 1 discounted like rank 2)'),
    ('lecture-code-zero', 'A', 'It returns 1, because the list is already in ideal order', 'perfect-without-relevant', 'the belief that nDCG is 1 when nothing is relevant'),
    ('lecture-code-zero', 'B', 'It returns 0, the usual convention', 'code-guards-itself', "the belief that the exam's short code handles a list with nothing relevant"),
    ('lecture-code-zero', 'C', 'It returns a negative number', 'ndcg-negative', 'the belief that nDCG can come out negative with non-negative labels'),
    ('gains-ratio', 'A', 'By 1.5 under either gain: the labels fix the ratio', 'labels-are-amounts', 'labels read as measured amounts'),
    ('gains-ratio', 'C', 'By 2 under exponential gain, because each label doubles the gain', 'gain-doubles', 'the belief that exponential gain doubles with each label'),
    ('gains-ratio', 'D', 'Not at all: gains only matter through the discount', 'gain-ignored', 'the belief that a higher label changes nothing before the discount'),
    ('gains-three-decisions', 'A', 'Which documents are relevant, their rank, and the precision at each rank', 'decisions-other', 'other decisions in place of gain, discount and ideal'),
    ('gains-three-decisions', 'B', 'The discount, the number of documents returned, and recall', 'decisions-other', 'other decisions in place of gain, discount and ideal'),
    ('gains-three-decisions', 'D', 'The gain, the cutoff and how topics are averaged', 'decisions-other', 'other decisions in place of gain, discount and ideal'),
    ('gains-labels-codes', 'A', 'That a label-2 document is worth exactly twice a label-1 document', 'labels-are-amounts', 'labels read as measured amounts'),
    ('gains-labels-codes', 'B', 'That a label-3 document is worth as much as a label-1 and a label-2 document together', 'labels-are-amounts', 'labels read as measured amounts'),
    ('gains-labels-codes', 'C', "That a 2 in this collection means the same as a 2 in the lecture's 0-2 scale", 'labels-same-scale', 'the belief that a label means the same on every scale'),
    ('gains-before-discount', 'A', 'The label is discounted first, and the gain function is applied to the discounted label', 'gain-after-discount', 'the gain applied after the discount'),
    ('gains-before-discount', 'B', 'The discounted labels are summed, and the gain is applied to the sum', 'gain-after-discount', 'the gain applied after the discount'),
    ('gains-before-discount', 'C', 'The gain is applied only to the ideal list', 'gain-one-list', 'the belief that the gain applies to one of the two lists only'),
    ('gains-binary-prices', 'A', 'They turn precision into a graded measure', 'binary-sees-grades', 'the belief that P@k and AP see the grades'),
    ('gains-binary-prices', 'B', 'They change the ideal ranking', 'binary-sees-grades', 'the belief that P@k and AP see the grades'),
    ('gains-binary-prices', 'D', 'Finer scores, because the labels are more detailed', 'binary-sees-grades', 'the belief that P@k and AP see the grades'),
    ('gains-top-label', 'A', 'Any collection whose labels are whole numbers', 'labels-are-amounts', 'labels read as measured amounts'),
    ('gains-top-label', 'B', 'One where you want higher scores for the best system', 'labels-after-the-fact', 'a label scheme chosen after the collection was built'),
    ('gains-top-label', 'C', 'Every collection: exponential gain is the standard', 'exponential-standard', 'the belief that exponential gain is the one standard'),
    ('gains-weighting', 'A', 'That the labels are now interval-scaled', 'labels-are-amounts', 'labels read as measured amounts'),
    ('gains-weighting', 'B', 'That the assessor rated the document seven times higher', 'labels-are-amounts', 'labels read as measured amounts'),
    ('gains-weighting', 'D', 'That the label-3 document is seven times as useful', 'labels-are-amounts', 'labels read as measured amounts'),
    ('gains-cross-collection', 'A', 'System X, because 0.6 > 0.5', 'gains-comparable', 'the belief that scores with different gains are one measure'),
    ('gains-cross-collection', 'B', 'System Y, because exponential gain is stricter', 'gains-comparable', 'the belief that scores with different gains are one measure'),
    ('gains-cross-collection', 'C', 'They are equal once normalised', 'normalised-comparable', 'the belief that normalising makes topics comparable'),
    ('gains-cg-order', 'A', 'Different CG@3: A is better ordered', 'cg-sees-order', 'the belief that CG depends on the order'),
    ('gains-cg-order', 'B', 'Same CG@3 and same DCG@3', 'dcg-ignores-order', 'the belief that DCG and nDCG ignore where a document is ranked'),
    ('gains-cg-order', 'C', 'Different CG@3, same DCG@3', 'cg-sees-order', 'the belief that CG depends on the order'),
    ('gains-labels-first', 'A', 'Nothing, as long as they report the gain they chose', 'labels-after-the-fact', 'a label scheme chosen after the collection was built'),
    ('gains-labels-first', 'C', 'Nothing: nDCG is normalised, so the label scheme does not matter', 'gains-comparable', 'the belief that scores with different gains are one measure'),
    ('gains-labels-first', 'D', 'Nothing, as long as they use exponential gain', 'labels-after-the-fact', 'a label scheme chosen after the collection was built'),
    ('discounts-base-cancel', 'A', 'DCG and nDCG both change', 'base-changes-ndcg', 'the belief that the log base changes nDCG'),
    ('discounts-base-cancel', 'C', 'Neither changes, because the logarithm is monotone', 'base-irrelevant', 'the belief that the log base changes nothing'),
    ('discounts-base-cancel', 'D', 'nDCG changes, DCG stays the same', 'base-changes-ndcg', 'the belief that the log base changes nDCG'),
    ('discounts-steep-top', 'A', 'Both cost the same: every rank step is one step', 'discount-linear-loss', 'the belief that every rank step costs the same'),
    ('discounts-steep-top', 'B', 'Neither: moving down never costs anything', 'dcg-ignores-order', 'the belief that DCG and nDCG ignore where a document is ranked'),
    ('discounts-steep-top', 'D', 'From rank 50 to rank 51', 'deep-steps-cost-more', 'the belief that a step down costs more deep in the list'),
    ('discounts-positive', 'A', 'Yes, with a base-10 logarithm', 'discount-can-subtract', 'the belief that a deep rank can lower DCG'),
    ('discounts-positive', 'C', 'Yes, if the document is not relevant', 'discount-can-subtract', 'the belief that a deep rank can lower DCG'),
    ('discounts-positive', 'D', 'Yes: far enough down the discount turns negative', 'discount-can-subtract', 'the belief that a deep rank can lower DCG'),
    ('discounts-tail-ap', 'A', 'DCG: the logarithmic discount punishes deep ranks harder than AP', 'ap-flat-tail', 'the belief that AP keeps at least as much weight deep in the list as DCG'),
    ('discounts-tail-ap', 'B', 'Both lose the same share', 'ap-flat-tail', 'the belief that AP keeps at least as much weight deep in the list as DCG'),
    ('discounts-tail-ap', 'C', 'Neither changes: both only ask whether the document was found', 'dcg-ignores-order', 'the belief that DCG and nDCG ignore where a document is ranked'),
    ('discounts-convex', 'B', 'It decreases and is concave', 'discount-concave', 'the belief that the discount curve is concave'),
    ('discounts-convex', 'C', 'It decreases by the same amount at every step', 'discount-linear-loss', 'the belief that every rank step costs the same'),
    ('discounts-convex', 'D', 'It increases and is concave, like log2(i + 1)', 'discount-concave', 'the belief that the discount curve is concave'),
    ('discounts-shifted-cutoffs', 'A', 'It makes nDCG independent of the cutoff', 'shifted-fixes-cutoff', 'the belief that the shifted discount makes nDCG independent of the cutoff'),
    ('discounts-shifted-cutoffs', 'B', 'It gives the same numbers as the standard discount', 'tools-agree', 'the belief that every tool uses the same discount'),
    ('discounts-shifted-cutoffs', 'D', 'With it nDCG can only grow with k', 'ndcg-monotone-in-k', 'the belief that nDCG can only grow with the cutoff'),
    ('discounts-tools-disagree', 'A', 'One counts unjudged documents as relevant', 'unjudged-as-relevant', 'the belief that unjudged documents are counted as relevant'),
    ('discounts-tools-disagree', 'C', 'One of them has a bug', 'tools-agree', 'the belief that every tool uses the same discount'),
    ('discounts-tools-disagree', 'D', 'Rounding', 'rounded-early', 'terms rounded before adding them'),
    ('discounts-reciprocal-reader', 'A', 'One who reads deep into the list, so the tail matters most', 'reciprocal-slow', 'the belief that 1/i decays slowly and keeps the tail'),
    ('discounts-reciprocal-reader', 'B', 'One who always reads exactly the first three results and ignores the rest', 'fixed-reader-reciprocal', 'the belief that 1/i models a reader who reads a fixed number of results'),
    ('discounts-reciprocal-reader', 'D', 'One who reads every result with the same care', 'discount-linear-loss', 'the belief that every rank step costs the same'),
    ('discounts-reciprocal-ap', 'B', 'AP weighs every relevant document by 1/i', 'ap-reciprocal-all', 'the belief that AP weighs every relevant document by 1/i'),
    ('discounts-reciprocal-ap', 'C', 'With 1/i, nDCG ignores the grades like AP', 'discount-sets-gain', 'the belief that the discount decides how grades count'),
    ('discounts-reciprocal-ap', 'D', 'With 1/i, nDCG and AP always give the same number', 'ap-reciprocal-all', 'the belief that AP weighs every relevant document by 1/i'),
    ('ideal-trap-concept', 'A', 'Nothing: the ideal list only depends on the run anyway', 'ideal-from-run', 'an ideal list built only from the labels in the ranked list'),
    ('ideal-trap-concept', 'C', 'It gives the run nDCG = 0, because the ideal list is empty', 'ideal-without-run', "the belief that the ideal leaves out the run's own documents"),
    ('ideal-trap-concept', 'D', 'It makes nDCG larger than 1', 'ratio-above-one', 'the belief that nDCG can exceed 1 (or is bounded without conditions)'),
    ('ideal-cutoff', 'A', 'No: adding ranks can only add gain, so nDCG cannot drop', 'ndcg-monotone-in-k', 'the belief that nDCG can only grow with the cutoff'),
    ('ideal-cutoff', 'C', 'No: nDCG is normalised, so it does not depend on k', 'normalised-means-fixed', 'the belief that normalisation removes the cutoff'),
    ('ideal-cutoff', 'D', 'Yes, but only with exponential gain', 'exponential-only', 'the belief that the effect needs exponential gain'),
    ('ideal-normalised', 'B', 'All three', 'dcg-normalised', 'the belief that CG or DCG already lies in [0, 1]'),
    ('ideal-normalised', 'C', 'DCG@k and nDCG@k', 'dcg-normalised', 'the belief that CG or DCG already lies in [0, 1]'),
    ('ideal-normalised', 'D', 'None of them: nDCG can exceed 1 too', 'ratio-above-one', 'the belief that nDCG can exceed 1 (or is bounded without conditions)'),
    ('ideal-range', 'B', 'Always: nDCG is normalised by definition', 'ratio-above-one', 'the belief that nDCG can exceed 1 (or is bounded without conditions)'),
    ('ideal-range', 'C', 'Only with linear gain', 'bound-wrong-condition', 'a wrong condition for nDCG to lie in [0, 1]'),
    ('ideal-range', 'D', 'Only when k equals the length of the list', 'bound-wrong-condition', 'a wrong condition for nDCG to lie in [0, 1]'),
    ('ideal-fraction', 'A', '78 % of its top 5 documents are relevant', 'ndcg-counts-documents', 'the belief that nDCG is a share of documents'),
    ('ideal-fraction', 'B', 'It found 78 % of the relevant documents', 'ndcg-counts-documents', 'the belief that nDCG is a share of documents'),
    ('ideal-fraction', 'C', 'A user is satisfied with probability 0.78', 'ndcg-is-probability', 'the belief that nDCG is a probability of user satisfaction'),
    ('ideal-topics', 'A', 'Neither: nDCG ignores the order within the top 10', 'dcg-ignores-order', 'the belief that DCG and nDCG ignore where a document is ranked'),
    ('ideal-topics', 'C', 'Topic A: more documents are delayed', 'normalised-comparable', 'the belief that normalising makes topics comparable'),
    ('ideal-topics', 'D', 'Both the same: normalisation makes topics comparable', 'normalised-comparable', 'the belief that normalising makes topics comparable'),
    ('ideal-one-exactly', 'A', 'When no judged document is relevant, because every order is then ideal', 'perfect-without-relevant', 'the belief that nDCG is 1 when nothing is relevant'),
    ('ideal-one-exactly', 'B', 'When the ranking is sorted by label', 'ideal-from-run', 'an ideal list built only from the labels in the ranked list'),
    ('ideal-one-exactly', 'D', 'Whenever all of the top k are relevant', 'ndcg-binary', 'the belief that nDCG only asks whether documents are relevant'),
    ('ideal-average', 'A', 'No: queries have different numbers of relevant documents', 'average-needs-same-scale', 'the belief that per-query values cannot be averaged'),
    ('ideal-average', 'B', 'Only DCG can be averaged', 'average-needs-same-scale', 'the belief that per-query values cannot be averaged'),
    ('ideal-average', 'C', 'Only over queries with the same number of relevant documents', 'average-needs-same-scale', 'the belief that per-query values cannot be averaged'),
    ('ideal-drop-condition', 'A', 'Yes: the topic has fewer relevant documents than k = 100, and that is the condition for a drop', 'fewer-than-k', "the essay's loose condition: fewer relevant documents than k"),
    ('ideal-drop-condition', 'B', 'Yes, but only with exponential gain', 'exponential-only', 'the belief that the effect needs exponential gain'),
    ('ideal-drop-condition', 'C', 'It depends on the log base', 'base-changes-ndcg', 'the belief that the log base changes nDCG'),
    ('ideal-judgments-needed', 'A', "The run's labels and the number of relevant documents", 'ndcg-needs-no-judgments', 'the belief that nDCG needs only the ranked list'),
    ('ideal-judgments-needed', 'B', "The run's scores", 'ndcg-needs-no-judgments', 'the belief that nDCG needs only the ranked list'),
    ('ideal-judgments-needed', 'D', "Only the labels of the run's own top 10", 'ndcg-needs-no-judgments', 'the belief that nDCG needs only the ranked list'),
    ('unjudged-condense-rewards', 'B', 'It treats the unjudged documents as relevant, so run 1 scores higher', 'unjudged-as-relevant', 'the belief that unjudged documents are counted as relevant'),
    ('unjudged-condense-rewards', 'C', "It lowers run 1's score more than gain 0 would", 'unjudged-policy', 'the other treatment of unjudged documents'),
    ('unjudged-condense-rewards', 'D', 'It removes the unjudged documents from the ideal list', 'unjudged-in-ideal', 'the belief that unjudged documents are part of the ideal'),
    ('unjudged-gain-zero', 'A', 'They drop it and move the documents below it up', 'unjudged-policy', 'the other treatment of unjudged documents'),
    ('unjudged-gain-zero', 'B', 'As relevant, to be fair to the system', 'unjudged-as-relevant', 'the belief that unjudged documents are counted as relevant'),
    ('unjudged-gain-zero', 'C', 'They refuse to score the run', 'unjudged-rejected', 'the belief that a run with unjudged documents cannot be scored'),
    ('unjudged-one-way', 'A', 'It is unbiased on average', 'unjudged-neutral', 'the belief that gain 0 for unjudged documents is neutral'),
    ('unjudged-one-way', 'C', 'Against every system equally, so comparisons stay fair', 'unjudged-neutral', 'the belief that gain 0 for unjudged documents is neutral'),
    ('unjudged-one-way', 'D', 'It can only ever lower a score, never raise it', 'unjudged-only-lowers', 'the belief that incomplete judgments can only lower nDCG'),
    ('unjudged-cutoff-bias', 'A', 'It shrinks, because nDCG is normalised at every k', 'bias-constant', 'the belief that the unjudged bias does not depend on the cutoff'),
    ('unjudged-cutoff-bias', 'B', 'Only when documents are condensed', 'bias-constant', 'the belief that the unjudged bias does not depend on the cutoff'),
    ('unjudged-cutoff-bias', 'D', 'No: the bias is a fixed amount per run', 'bias-constant', 'the belief that the unjudged bias does not depend on the cutoff'),
    ('unjudged-novel', 'A', 'Condensing makes its score exact', 'condense-is-free', 'the belief that condensing removes the bias at no cost'),
    ('unjudged-novel', 'C', 'It is rewarded for novelty', 'unjudged-as-relevant', 'the belief that unjudged documents are counted as relevant'),
    ('unjudged-novel', 'D', 'Nothing, once the pool is deep enough', 'deeper-pool-is-enough', 'the belief that a deeper pool alone makes a novel system fair'),
    ('unjudged-guarantee', 'A', 'The same as condensing', 'condense-is-free', 'the belief that condensing removes the bias at no cost'),
    ('unjudged-guarantee', 'B', 'Unnecessary, because gain 0 is neutral', 'unjudged-neutral', 'the belief that gain 0 for unjudged documents is neutral'),
    ('unjudged-guarantee', 'D', 'A fix that can be applied to any existing collection by rescoring', 'rescoring-fixes-pool', 'the belief that rescoring can stand in for judgments nobody made'),
    ('unjudged-shallow', 'A', 'Never: modern collections have no unjudged documents', 'pools-complete', 'the belief that collections judge every document a run returns'),
    ('unjudged-shallow', 'B', 'Only with exponential gain', 'exponential-only', 'the belief that the effect needs exponential gain'),
    ('unjudged-shallow', 'D', 'At shallow cutoffs on a well-built collection', 'bias-constant', 'the belief that the unjudged bias does not depend on the cutoff'),
    ('unjudged-report', 'A', 'Only the number of topics', 'bare-number', 'a result reported without its configuration'),
    ('unjudged-report', 'B', 'Nothing: nDCG already accounts for unjudged documents', 'unjudged-neutral', 'the belief that gain 0 for unjudged documents is neutral'),
    ('unjudged-report', 'C', 'The condensed nDCG instead of the usual one', 'condense-is-free', 'the belief that condensing removes the bias at no cost'),
    ('runs-tiebreak', 'A', 'doc-a, doc-b, doc-c: the order of the file', 'ties-file-order', "ties broken by the file's order or its rank column"),
    ('runs-tiebreak', 'C', 'By the rank column of the run file', 'ties-file-order', "ties broken by the file's order or its rank column"),
    ('runs-tiebreak', 'D', 'In random order, different on every run', 'ties-random', 'the belief that tied documents are ordered at random'),
    ('runs-average', 'B', 'All 50 qrels topics, the 5 missing ones scoring 0', 'average-topics', 'the wrong set of topics in the average'),
    ('runs-average', 'C', 'Every topic in the run file, judged or not', 'average-topics', 'the wrong set of topics in the average'),
    ('runs-average', 'D', 'Only the topics with at least one relevant document retrieved', 'average-topics', 'the wrong set of topics in the average'),
    ('runs-config', 'A', 'nDCG@5', 'bare-number', 'a result reported without its configuration'),
    ('runs-config', 'B', 'nDCG@5 with exponential gain', 'bare-number', 'a result reported without its configuration'),
    ('runs-config', 'D', 'nDCG, computed with a standard tool', 'bare-number', 'a result reported without its configuration'),
    ('runs-negative-label', 'B', 'As judged non-relevant, the same as label 0', 'negative-is-nonrelevant', 'a negative qrels label read as judged non-relevant'),
    ('runs-negative-label', 'C', 'As an error: the file is rejected', 'negative-label-rejected', 'the belief that trec_eval rejects a negative qrels label'),
    ('runs-negative-label', 'D', 'As a penalty that lowers DCG', 'negative-label-penalty', 'the belief that a negative qrels label is a negative gain'),
    ('binary-swap', 'A', 'All three change', 'binary-sees-grades', 'the belief that P@k and AP see the grades'),
    ('binary-swap', 'B', 'None of them changes', 'dcg-ignores-order', 'the belief that DCG and nDCG ignore where a document is ranked'),
    ('binary-swap', 'C', 'P@5 stays the same, AP changes', 'binary-sees-grades', 'the belief that P@k and AP see the grades'),
    ('binary-gap-weight', 'A', 'It stays the same: normalisation removes the gain', 'gains-comparable', 'the belief that scores with different gains are one measure'),
    ('binary-gap-weight', 'B', 'It appears only with exponential gain', 'exponential-only', 'the belief that the effect needs exponential gain'),
    ('binary-gap-weight', 'D', 'It shrinks', 'exponential-top-weight', "the belief that exponential gain does not raise the top label's weight"),
    ('binary-threshold', 'A', 'It is dropped from the ranking', 'threshold-drops', 'the belief that a label below the threshold is removed from the ranking'),
    ('binary-threshold', 'B', 'It counts as relevant, because every positive label is relevant', 'threshold-ignored', 'the belief that every positive label counts as relevant whatever the threshold'),
    ('binary-threshold', 'D', 'It counts as half relevant', 'binary-sees-grades', 'the belief that P@k and AP see the grades'),
    ('binary-ap-weight', 'A', 'Its gain times 1/log2(i + 1)', 'binary-sees-grades', 'the belief that P@k and AP see the grades'),
    ('binary-ap-weight', 'B', 'Always 1/i', 'ap-reciprocal-all', 'the belief that AP weighs every relevant document by 1/i'),
    ('binary-ap-weight', 'C', '1, wherever it is ranked', 'ap-count-only', 'the belief that AP only counts relevant documents, wherever they are'),
    # chapter 12 (which measure?), reviewed option by option
    ('measures-map-weights', 'B', 'A weighs 25 times more, because it has 25 times more relevant documents', 'map-pooled', "all topics' relevant documents pooled (a topic with many relevant documents weighs more)"),
    ('measures-map-weights', 'C', 'B weighs more, because each of its relevant documents moves AP further', 'map-topic-weights', 'the belief that topics weigh differently in MAP'),
    ('measures-map-weights', 'D', 'Only topics with an AP above 0 count', 'average-topics', 'the wrong set of topics in the average'),
    ('measures-bpref-unjudged', 'B', 'Both fall: an unjudged document is a non-relevant one', 'bpref-unjudged-as-nonrelevant', 'unjudged documents counted as judged non-relevant'),
    ('measures-bpref-unjudged', 'C', 'Both stay the same', 'unjudged-neutral', 'the belief that gain 0 for unjudged documents is neutral'),
    ('measures-bpref-unjudged', 'D', 'bpref falls; AP stays the same', 'bpref-unjudged-as-nonrelevant', 'unjudged documents counted as judged non-relevant'),
    ('measures-incomplete-binary', 'A', 'nDCG@k', 'ndcg-for-incomplete', 'the belief that nDCG was made for incomplete judgments'),
    ('measures-incomplete-binary', 'C', 'P@k', 'unjudged-neutral', 'the belief that gain 0 for unjudged documents is neutral'),
    ('measures-incomplete-binary', 'D', 'Any of them: the measures only differ in their formulas', 'measure-fits-any-judgments', 'the belief that every measure suits every kind of judgments'),
    ('measures-rprec-cutoff', 'A', 'At rank 10 for both: R-precision is P@10', 'rprec-fixed-k', 'the belief that P@R uses one fixed cutoff for every query'),
    ('measures-rprec-cutoff', 'C', 'At the end of each list', 'rprec-whole-list', 'the precision of the whole list instead of the top R'),
    ('measures-rprec-cutoff', 'D', 'At the last relevant document the list returned', 'rprec-r-from-list', 'R counted from the ranked list only (the relevant documents it missed left out)'),
    ('measures-family', 'B', 'Read graded labels', 'binary-sees-grades', 'the belief that P@k and AP see the grades'),
    ('measures-family', 'C', 'Need every retrieved document to be judged', 'all-need-complete', 'the belief that every measure needs every retrieved document judged'),
    ('measures-family', 'D', 'Ignore the order of the list', 'dcg-ignores-order', 'the belief that DCG and nDCG ignore where a document is ranked'),
    ('signif-p-value-meaning', 'A', 'There is a 3 % chance that A and B are equally good', 'p-is-null-probability', 'the belief that the p-value is the probability that the runs are equally good'),
    ('signif-p-value-meaning', 'C', 'B is better than A on 97 % of the topics', 'p-counts-topics', 'the belief that the p-value counts the topics on which one run wins'),
    ('signif-p-value-meaning', 'D', "B's improvement is large", 'significant-means-large', 'the belief that a significant difference is a large one'),
    ('signif-tiny-but-significant', 'A', 'B is much better: p < 0.001 is very strong evidence of a large gain', 'significant-means-large', 'the belief that a significant difference is a large one'),
    ('signif-tiny-but-significant', 'C', 'The test must be wrong: a difference this small cannot be significant', 'significant-means-large', 'the belief that a significant difference is a large one'),
    ('signif-tiny-but-significant', 'D', 'Nothing: with 5,000 topics every test is significant, so the result is meaningless', 'many-topics-always-significant', 'the belief that with enough topics every difference comes out significant'),
    ('signif-large-not-significant', 'A', 'A and B are equally good: the test found no difference', 'not-significant-means-equal', 'the belief that a non-significant difference shows the runs are equal'),
    ('signif-large-not-significant', 'B', 'B is better by 0.10: the mean says so', 'mean-settles-it', 'the belief that the mean difference alone shows which run is better'),
    ('signif-large-not-significant', 'D', 'A is better, because p is above 0.05', 'large-p-favours-baseline', 'the belief that a p-value above 0.05 shows the baseline is better'),
    ('signif-many-comparisons', 'A', 'Nine of the differences are real', 'many-comparisons-ignored', 'each of many comparisons tested at 0.05 as if it were the only one'),
    ('signif-many-comparisons', 'C', 'None of them can be real, since some of them are chance', 'chance-rules-out-all', 'the belief that if some significant results are chance, none of them can be real'),
    ('signif-many-comparisons', 'D', 'Test again with the same topics until the nine are confirmed', 'retest-same-topics', 'the belief that testing again on the same topics confirms a result'),
    ('signif-why-paired', 'B', 'Because the two samples have different sizes', 'paired-for-sizes', 'the belief that a paired test is for samples of different sizes'),
    ('signif-why-paired', 'C', 'It makes no difference: a paired and an unpaired test give the same p-value', 'unpaired-test', 'an unpaired (two-sample) t-test that ignores which scores belong to the same topic'),
    ('signif-why-paired', 'D', 'Because nDCG is normalised, so topics are directly comparable', 'normalised-comparable', 'the belief that normalising makes topics comparable'),
]

# (exercise, option, old misconception, new misconception): the labels the review replaced.
CHANGED = [
    ('lecture-rank-one', 'D', 'tools-agree', 'rank-one-by-convention'),
    ('lecture-exam-ideal', 'A', 'ideal-from-run', 'ideal-from-run-always-wrong'),
    ('lecture-exam-ideal', 'B', 'perfect-without-relevant', 'code-divides-always'),
    ('lecture-code-zero', 'C', 'discount-can-subtract', 'ndcg-negative'),
    ('gains-ratio', 'A', 'gain-linear-for-exponential', 'labels-are-amounts'),
    ('gains-ratio', 'D', 'gain-after-discount', 'gain-ignored'),
    ('gains-three-decisions', 'A', 'binary-sees-grades', 'decisions-other'),
    ('gains-three-decisions', 'B', 'normalised-comparable', 'decisions-other'),
    ('gains-three-decisions', 'D', 'bare-number', 'decisions-other'),
    ('gains-before-discount', 'C', 'gain-after-discount', 'gain-one-list'),
    ('gains-top-label', 'C', 'tools-agree', 'exponential-standard'),
    ('gains-cg-order', 'B', 'cg-sees-order', 'dcg-ignores-order'),
    ('gains-labels-first', 'C', 'normalised-comparable', 'gains-comparable'),
    ('gains-labels-first', 'D', 'exponential-only', 'labels-after-the-fact'),
    ('discounts-steep-top', 'B', 'discount-can-subtract', 'dcg-ignores-order'),
    ('discounts-positive', 'A', 'base-changes-ndcg', 'discount-can-subtract'),
    ('discounts-tail-ap', 'C', 'binary-sees-grades', 'dcg-ignores-order'),
    ('discounts-reciprocal-ap', 'B', 'ap-flat-tail', 'ap-reciprocal-all'),
    ('discounts-reciprocal-ap', 'C', 'binary-sees-grades', 'discount-sets-gain'),
    ('discounts-reciprocal-ap', 'D', 'tools-agree', 'ap-reciprocal-all'),
    ('discounts-reciprocal-reader', 'A', 'ap-flat-tail', 'reciprocal-slow'),
    ('ideal-trap-concept', 'C', 'ndcg-needs-no-judgments', 'ideal-without-run'),
    ('ideal-normalised', 'B', 'no-normalisation', 'dcg-normalised'),
    ('ideal-normalised', 'C', 'no-normalisation', 'dcg-normalised'),
    ('ideal-range', 'C', 'exponential-only', 'bound-wrong-condition'),
    ('ideal-range', 'D', 'normalised-means-fixed', 'bound-wrong-condition'),
    ('ideal-fraction', 'A', 'binary-sees-grades', 'ndcg-counts-documents'),
    ('ideal-fraction', 'B', 'normalised-comparable', 'ndcg-counts-documents'),
    ('ideal-fraction', 'C', 'labels-are-amounts', 'ndcg-is-probability'),
    ('ideal-topics', 'A', 'cg-sees-order', 'dcg-ignores-order'),
    ('ideal-one-exactly', 'D', 'binary-sees-grades', 'ndcg-binary'),
    ('ideal-average', 'B', 'no-normalisation', 'average-needs-same-scale'),
    ('ideal-judgments-needed', 'A', 'binary-sees-grades', 'ndcg-needs-no-judgments'),
    ('unjudged-gain-zero', 'C', 'unjudged-neutral', 'unjudged-rejected'),
    ('unjudged-cutoff-bias', 'B', 'condense-is-free', 'bias-constant'),
    ('runs-negative-label', 'C', 'negative-is-nonrelevant', 'negative-label-rejected'),
    ('runs-negative-label', 'D', 'discount-can-subtract', 'negative-label-penalty'),
    ('binary-swap', 'B', 'cg-sees-order', 'dcg-ignores-order'),
    ('binary-gap-weight', 'A', 'normalised-comparable', 'gains-comparable'),
    ('binary-gap-weight', 'D', 'gains-comparable', 'exponential-top-weight'),
    ('binary-threshold', 'A', 'unjudged-policy', 'threshold-drops'),
    ('binary-ap-weight', 'B', 'ap-flat-tail', 'ap-reciprocal-all'),
    ('binary-ap-weight', 'C', 'ap-flat-tail', 'ap-count-only'),
    ('discounts-steep-top', 'D', 'discount-linear-loss', 'deep-steps-cost-more'),
    ('discounts-shifted-cutoffs', 'A', 'normalised-means-fixed', 'shifted-fixes-cutoff'),
    ('unjudged-guarantee', 'D', 'deeper-pool-is-enough', 'rescoring-fixes-pool'),
    ('unjudged-shallow', 'A', 'unjudged-neutral', 'pools-complete'),
    ('binary-threshold', 'B', 'binary-sees-grades', 'threshold-ignored'),
    ('signif-p-value-meaning', 'C', 'ci-covers-topics', 'p-counts-topics'),
    ('signif-tiny-but-significant', 'D', 'many-comparisons-ignored', 'many-topics-always-significant'),
    ('signif-large-not-significant', 'B', 'significant-means-large', 'mean-settles-it'),
    ('signif-large-not-significant', 'D', 'not-significant-means-equal', 'large-p-favours-baseline'),
    ('signif-many-comparisons', 'C', 'not-significant-means-equal', 'chance-rules-out-all'),
    ('signif-many-comparisons', 'D', 'many-comparisons-ignored', 'retest-same-topics'),
    ('signif-why-paired', 'B', 'unpaired-test', 'paired-for-sizes'),
]


def concept_labels() -> list[tuple[str, str, str, str]]:
    rows = []
    for exercise in ex.all_exercises():
        if exercise.kind != "concept":
            continue
        for i, (text, mid) in enumerate(zip(exercise.options, exercise.option_misconceptions)):
            if mid:
                rows.append((exercise.id, LETTERS[i], text, mid))
    return rows


def test_every_labelled_concept_option_is_in_the_reviewed_table():
    reviewed = [row[:4] for row in REVIEWED]
    assert len(set(reviewed)) == len(reviewed)
    current = concept_labels()
    assert sorted(set(current) - set(reviewed)) == []  # a new or changed label: review it and add it here
    assert sorted(set(reviewed) - set(current)) == []  # a reviewed label is gone: remove it here


@pytest.mark.parametrize("row", REVIEWED, ids=lambda row: f"{row[0]}-{row[1]}")
def test_the_table_shows_the_belief_the_label_names(row):
    _, _, _, mid, belief = row
    assert ex.MISCONCEPTIONS[mid].name == belief


@pytest.mark.parametrize("row", CHANGED, ids=lambda row: f"{row[0]}-{row[1]}")
def test_a_replaced_label_is_gone(row):
    exercise_id, letter, old, new = row
    labels = ex.get(exercise_id).option_misconceptions
    assert labels[LETTERS.index(letter)] == new != old


def test_the_issue_examples_are_fixed():
    def label(exercise_id: str, letter: str) -> str | None:
        return ex.get(exercise_id).option_misconceptions[LETTERS.index(letter)]

    # "Neither: nDCG ignores the order within the top 10" is not "CG depends on the order".
    assert label("ideal-topics", "A") == "dcg-ignores-order"
    # "Neither: moving down never costs anything" is not "a deep rank can lower DCG".
    assert label("discounts-steep-top", "B") == "dcg-ignores-order"
    # "As an error: the file is rejected" is not "read as judged non-relevant".
    assert label("runs-negative-label", "C") == "negative-label-rejected"
    # "No: it divides by zero on this list" is not "nDCG is 1 when nothing is relevant".
    assert label("lecture-exam-ideal", "B") == "code-divides-always"


def test_every_misconception_a_concept_option_names_has_a_hint():
    for _, _, _, mid, _ in REVIEWED:
        m = ex.MISCONCEPTIONS[mid]
        assert m.name and m.hint.endswith("."), mid


# ------------------------------------------------------------------ near-duplicates (issue 20)

REMOVED = ("unjudged-condense-short", "runs-ideal-source")


def test_removed_near_duplicates_are_referenced_nowhere():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    ids = {e.id for e in ex.all_exercises()}
    places = [root / "data" / "coverage.toml", *sorted((root / "notebooks").rglob("*.py")),
              *sorted((root / "ndcg_core").rglob("*.py"))]
    for removed in REMOVED:
        assert removed not in ids
        for path in places:
            assert removed not in path.read_text(encoding="utf-8"), (removed, path)
    # what they taught is carried by the exercise they were merged into
    assert "rewards a run that returned fewer documents" in ex.get("unjudged-condense-rewards").explanation
    assert "whether the ideal was built from the full judgments" in ex.get("runs-config").explanation \
        or "ideal list from all judged documents" in ex.get("runs-config").options[ex.get("runs-config").answer_option]


def test_the_former_near_duplicates_ask_different_things():
    import ndcg_core as nc

    # CG: gains-cg-order asks whether order matters (it does not); gains-cg-compare asks which top 3
    # holds more gain: A = 2, 0, 0 has CG 2, B = 0, 1, 2 has CG 3, though A wins under DCG.
    compare = ex.get("gains-cg-compare").setting
    assert tuple(compare.labels) != tuple(ex.get("gains-cg-order").setting.labels)
    assert ex.expected_answer("gains-cg-compare") == "Ranking B"
    assert nc.dcg([2, 0, 0], 3) > nc.dcg([0, 1, 2], 3)
    # The exam's code: ideal-trap-concept is the 1.0 trap; ideal-exam-code computes the short code's
    # value on a list where it is not 1: (2 + 3/2) / (3 + 2/log2(3)), and names the full-judgment value.
    assert ex.expected_answer("ideal-exam-code") == pytest.approx((2 + 3 / 2) / (3 + 2 / math.log2(3)))
    full = nc.ndcg([2, 0, 3, 0], 4, judgments=[3, 3, 2, 2])
    assert ex.check("ideal-exam-code", f"{full:.2f}").misconception == "ideal-from-judgments"
    # Labels: gains-weighting asks what a gain of 7 claims; gains-labels-codes what the labels alone allow.
    assert ex.get("gains-weighting").prompt != ex.get("gains-labels-codes").prompt
    assert "labels alone" in ex.get("gains-labels-codes").title


def test_every_exercise_maps_to_a_claim():
    import tomllib
    from pathlib import Path

    coverage = tomllib.loads((Path(__file__).resolve().parents[2] / "data" / "coverage.toml").read_text("utf-8"))
    mapped = {x for claim in coverage.values() for x in claim.get("exercised", [])}
    assert sorted(e.id for e in ex.all_exercises() if e.id not in mapped) == []

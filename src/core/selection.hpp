// The optimizer's curse (Smith and Winkler 2006, "The Optimizer's Curse: Skepticism and
// Postdecision Surprise in Decision Analysis", Management Science 52(3)): of several options
// estimated with errors, the one estimated best is on average the one most over-estimated. The
// plan search picks the layout predicted fastest, so its pick's prediction is optimistic by more
// than the model's error on a layout chosen blind.
#pragma once

#include <vector>

namespace tc {

// The expected excess of the pick's predicted log speed over its true one, E[d_pick], when each
// option k's prediction is its true log speed log_speeds[k] plus an error d_k ~ N(0, sigma^2)
// independent of the others' and the pick is the largest prediction. Evaluated as the sum over k
// of the integral of (y - m_k) phi_sigma(y - m_k) prod_{j != k} Phi((y - m_j) / sigma) dy
// (Simpson's rule, five digits); 0 for one option or sigma 0. Options more than 9 sigma below the
// fastest are left out (one is picked with a probability below 1e-9), and non-finite ones. The
// predictions stand in for the true speeds (a plug-in estimate, not Smith and Winkler's Bayesian
// shrinkage, which needs a prior over the plans' speeds).
double pick_optimism(const std::vector<double>& log_speeds, double sigma);

}  // namespace tc

// A global batch that no parallel plan splits over the cluster (core/plan_search): by default the
// estimate runs the nearest batch that splits and says so; asked for exactly, the error names the
// nearest node counts, batches and chip counts that work; the -/+ steps land on such values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>

#include "core/plan_search.hpp"
#include "io/job.hpp"
#include "support.hpp"

namespace {

using tc::io::Json;

using tc_test::lib;

tc::io::Job job(const std::string& model, const std::string& instance, int nodes, Json extra = Json::object()) {
  Json doc = {{"model", model}, {"instance", instance}, {"nodes", nodes}, {"training", {{"tokens", 1e12}}}};
  doc.update(extra);
  return tc::io::parse_job(doc, lib(), "test");
}

// Llama 3.1 8B (seq 8192: default batch 512 sequences, 4M tokens) on 33 p5 nodes, 264 GPUs. By
// hand: tp divides 8 (and the 8 KV heads), pp is at most the 32 layers, so dp = 264 / (tp pp) is
// one of 3, 6, 11, 12, 22, 24, 33, 44, 66, 88, 132, 264; none divides 512 = 2^9.
TEST(BatchFit, UnsplittableBatchUsesTheNearestThatSplits) {
  const auto j = job("llama3.1-8b", "p5.48xlarge", 33);
  ASSERT_EQ(j.spec.scenario.global_batch, 512);
  const auto units = tc::batch_units(j.spec.scenario, j.spec.request);
  EXPECT_EQ(units, (std::vector<long long>{3, 6, 11, 12, 22, 24, 33, 44, 66, 88, 132, 264}));
  EXPECT_FALSE(tc::batch_splits(512, units));
  const auto r = tc::io::evaluate(j, lib());
  // Within 5% of 512 (486 to 538) and a multiple of the plan's dp x micro_batch.
  EXPECT_LE(std::llabs(r.est.global_batch - 512), 25);
  EXPECT_EQ(r.est.global_batch % (1LL * r.est.plan.dp * r.est.plan.micro_batch), 0);
  ASSERT_FALSE(r.est.warnings.empty());
  EXPECT_EQ(r.est.warnings[0].rfind("global_batch 512 splits over no parallel plan of the 264 devices; the estimate uses " +
                                        std::to_string(r.est.global_batch), 0),
            0u)
      << r.est.warnings[0];
  // Tokens per step follow the batch used.
  EXPECT_DOUBLE_EQ(r.est.tokens_per_s * r.est.step_time_s, r.est.global_batch * 8192.0);
}

TEST(BatchFit, ExactBatchNamesTheNearestFixes) {
  const auto j = job("llama3.1-8b", "p5.48xlarge", 33, {{"global_batch_exact", true}});
  const tc::BatchFixes f = tc::io::global_batch_fixes(j.spec);
  // 32 nodes: dp 256 divides 512. 34 nodes = 272 GPUs: dp 16 with tp 1, pp 17.
  EXPECT_EQ(f.nodes, (std::vector<int>{32, 34}));
  // Nearest multiples of the units above: 510 (3, 6) below, 513 (3) above.
  EXPECT_EQ(f.global_batches, (std::vector<long long>{510, 513}));
  try {
    tc::io::evaluate(j, lib());
    ADD_FAILURE() << "an exact batch that does not split estimated";
  } catch (const tc::io::InputError& e) {
    EXPECT_EQ(e.field(), "global_batch");
    EXPECT_NE(std::string(e.what()).find("nearest that work: nodes 32 or 34, global_batch 510 or 513"), std::string::npos)
        << e.what();
  }
}

TEST(BatchFit, StepsLandOnValuesThatSplit) {
  auto j = job("llama3.1-8b", "p5.48xlarge", 33);
  const tc::Scenario& s = j.spec.scenario;
  EXPECT_EQ(tc::step_global_batch(s, j.spec.request, +1), 513);
  EXPECT_EQ(tc::step_global_batch(s, j.spec.request, -1), 510);
  EXPECT_EQ(tc::step_nodes(s, j.spec.request, -1), 32);
  EXPECT_EQ(tc::step_nodes(s, j.spec.request, +1), 34);
  // On 32 nodes, 256 GPUs = tp 8 x pp 32 x dp 1: a unit of 1, every batch splits.
  j = job("llama3.1-8b", "p5.48xlarge", 32);
  EXPECT_EQ(tc::step_global_batch(j.spec.scenario, j.spec.request, +1), 513);
}

// The class: any preset model on any instance, any node count, any batch, with the plan left to
// the search, either estimates or fails for a reason other than the batch.
TEST(BatchFit, NoAutoPlanEverFailsOnTheBatch) {
  std::mt19937 rng(13);
  const auto& l = lib();
  for (int i = 0; i < 150; ++i) {
    const auto& m = l.models[rng() % l.models.size()];
    const auto& x = l.instances[rng() % l.instances.size()];
    const int nodes = 1 + static_cast<int>(rng() % 200);
    const long long batch = 1 + static_cast<long long>(rng() % 5000);
    try {
      const auto r = tc::io::evaluate(job(m.id, x.id, nodes, {{"global_batch", batch}}), l);
      EXPECT_TRUE(std::isfinite(r.est.step_time_s) && r.est.global_batch > 0);
      EXPECT_EQ(r.est.global_batch % (1LL * r.est.plan.dp * r.est.plan.micro_batch), 0);
    } catch (const tc::io::InputError& e) {
      EXPECT_NE(e.field(), "global_batch") << m.id << " on " << nodes << " x " << x.id << ", batch " << batch << ": "
                                           << e.what();
    }
  }
}

}  // namespace

// A drag's preview keeps the plan it had (io::job_with_plan): on a cluster its pipeline does not
// divide, the pipeline moves to the nearest depth that the devices divide into and the layers
// fill; the tensor-parallel shape stays. 80 layers at pp 5, tp 8 on 8 p5 nodes (64 GPUs, so
// 8 ranks for pp x dp): of the divisors of 8, 4 is 1 away from 5 and 8 is 3 away: pp 4.
TEST(BatchFit, AKeptPlanMovesItsPipelineToTheNearestDepthThatDivides) {
  const auto base = job("llama3.1-70b", "p5.48xlarge", 8);
  tc::Estimate plan;
  plan.plan.tp = 8;
  plan.plan.pp = 5;
  plan.plan.vpp = 2;
  plan.plan.cp = 1;
  plan.plan.micro_batch = 1;
  plan.plan.zero = 1;
  plan.plan.sequence_parallel = true;
  plan.plan.recompute = tc::Recompute::selective;
  plan.pick_optimism = 0.03;
  const auto kept = tc::io::job_with_plan(base, plan, tc::io::PlanKept::whole);
  EXPECT_EQ(kept.spec.request.tp, 8);
  EXPECT_EQ(kept.spec.request.pp, 4);
  EXPECT_EQ(kept.spec.request.vpp, 2);
  EXPECT_EQ(kept.spec.request.dp, tc::kAuto);
  const auto r = tc::io::evaluate(kept, lib());
  EXPECT_EQ(r.est.plan.tp * r.est.plan.pp * r.est.plan.dp, 64);
  // The kept plan keeps the correction of the search that picked it.
  EXPECT_DOUBLE_EQ(r.est.pick_optimism, 0.03);
  // One node: 8 GPUs, all tensor-parallel; no pipeline, so no interleaving either.
  const auto one = tc::io::job_with_plan(job("llama3.1-70b", "p5.48xlarge", 1), plan, tc::io::PlanKept::whole);
  EXPECT_EQ(one.spec.request.pp, 1);
  EXPECT_EQ(one.spec.request.vpp, 1);
  // The tensor-parallel level leaves the pipeline and micro-batch to the search.
  const auto tp = tc::io::job_with_plan(base, plan, tc::io::PlanKept::tensor_parallel);
  EXPECT_EQ(tp.spec.request.tp, 8);
  EXPECT_EQ(tp.spec.request.pp, tc::kAuto);
  EXPECT_EQ(tp.spec.request.micro_batch, tc::kAuto);
}

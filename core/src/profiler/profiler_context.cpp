// ProfilerContext: times every layer call through the LayerObserver hook (layers.hpp) and
// turns the records into the "top operations" table. A stack of open calls gives each call
// its depth and lets a parent's self time exclude its nested parts.
// Not for: statistics over calls (the Timer does that for whole passes and single layers).
#include <algorithm>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/profiler/profiler.hpp"
#include "perflab/base/rates.hpp"
#include "profiler_detail.hpp"

namespace perflab {

namespace {
const char* pass_name(Pass pass) { return pass == Pass::Forward ? "forward" : "backward"; }
}  // namespace

ProfilerContext::ProfilerContext(Clock& clock) : clock_(&clock) {
  if (layer_observer() != nullptr) {
    throw Error(
        "a ProfilerContext (or another LayerObserver) is already active; contexts do not nest, "
        "end the first one before starting another");
  }
  set_layer_observer(this);
}

ProfilerContext::~ProfilerContext() {
  if (layer_observer() == this) set_layer_observer(nullptr);
}

void ProfilerContext::watch(const Layer& layer, const Shape& input_shape, std::string name) {
  if (input_shape.empty()) {
    throw ShapeError(layer.label() + ": the input shape must have at least the batch dimension");
  }
  const auto batch = static_cast<double>(input_shape[0]);
  Watched w;
  w.name = std::move(name);
  w.flops_forward = layer.flops_per_sample(input_shape).matmul * batch;
  w.flops_backward = layer.backward_flops_per_sample(input_shape).matmul * batch;
  w.flops_backward_no_input_grad = layer.backward_flops_for(input_shape, false).matmul * batch;
  watched_[&layer] = std::move(w);
}

void ProfilerContext::watch(Model& model, std::size_t batch) {
  batch = detail::resolve_batch(model, batch);
  for (std::size_t i = 0; i < model.size(); ++i) {
    Layer& layer = model.layer(i);
    const Shape in = detail::layer_input_at(model, i, batch);
    watch(layer, in, layer.label());
    // A TransformerBlock's parts run as layers of their own; name them after their role.
    if (auto* block = dynamic_cast<TransformerBlock*>(&layer)) {
      const Shape hidden = {in[0], in[1], block->d_ff()};
      const std::string prefix = layer.label() + " / ";
      watch(block->ln1(), in, prefix + "ln1");
      watch(block->attn(), in, prefix + "attn");
      watch(block->ln2(), in, prefix + "ln2");
      watch(block->ffn1(), in, prefix + "ffn1");
      watch(block->gelu(), hidden, prefix + "gelu");
      watch(block->ffn2(), hidden, prefix + "ffn2");
    }
  }
}

void ProfilerContext::on_begin(const Layer& layer, Pass pass) {
  stack_.push_back({&layer, pass, clock_->now_ms(), 0.0});
}

void ProfilerContext::on_end(const Layer& layer, Pass pass) {
  const double now_ms = clock_->now_ms();
  // The hook pairs begin and end calls (on_end runs even when a call throws), so the top
  // of the stack is this call; a mismatch means the context was created mid-call.
  if (stack_.empty() || stack_.back().layer != &layer || stack_.back().pass != pass) return;
  const Frame frame = stack_.back();
  stack_.pop_back();
  const double elapsed_ms = now_ms - frame.start_ms;
  if (!stack_.empty()) stack_.back().child_ms += elapsed_ms;

  const auto key = std::make_pair(&layer, static_cast<int>(pass));
  auto it = records_.find(key);
  if (it == records_.end()) {
    Record r;
    const auto w = watched_.find(&layer);
    r.layer = w != watched_.end() ? w->second.name : layer.label();
    r.type = std::string(layer.type());
    r.pass = pass_name(pass);
    r.depth = static_cast<int>(stack_.size());
    r.order = records_.size();
    it = records_.emplace(key, std::move(r)).first;
  }
  Record& r = it->second;
  r.calls += 1;
  r.total_ms += elapsed_ms;
  r.self_ms += elapsed_ms - frame.child_ms;
  const auto w = watched_.find(&layer);
  if (w != watched_.end()) {
    // A training backward (Model::backward_parameters) skips layer 0's input gradient.
    r.flops += pass == Pass::Forward  ? w->second.flops_forward
               : layer.input_grad() ? w->second.flops_backward
                                    : w->second.flops_backward_no_input_grad;
  }
}

double ProfilerContext::top_level_ms() const {
  double total = 0;
  for (const auto& [key, r] : records_) {
    if (r.depth == 0) total += r.total_ms;
  }
  return total;
}

std::vector<OperationRow> ProfilerContext::top_operations() const {
  std::vector<const Record*> sorted;
  for (const auto& [key, r] : records_) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(), [](const Record* a, const Record* b) {
    if (a->total_ms != b->total_ms) return a->total_ms > b->total_ms;
    return a->order < b->order;
  });
  const double whole_ms = top_level_ms();
  std::vector<OperationRow> rows;
  for (const Record* r : sorted) {
    OperationRow row;
    row.layer = r->layer;
    row.type = r->type;
    row.pass = r->pass;
    row.depth = r->depth;
    row.calls = r->calls;
    row.total_ms = r->total_ms;
    row.self_ms = r->self_ms;
    row.percent_of_total = whole_ms > 0 ? 100.0 * r->total_ms / whole_ms : 0.0;
    row.flops = r->flops;
    row.gflops_per_s = gflops_per_s(r->flops, r->total_ms);
    rows.push_back(std::move(row));
  }
  return rows;
}

void ProfilerContext::reset() {
  records_.clear();
  stack_.clear();
}

}  // namespace perflab

// Structured pruning (optimize/structured.hpp): the prunable layers found by walking the
// model, the units ranked by the L2 norm of their incoming weights, a smaller spec built and
// its parameters copied from the kept rows and columns.
#include "perflab/optimize/structured.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"

namespace perflab {
namespace {

bool is_producer(const Layer& l) { return l.type() == "Linear" || l.type() == "Conv2d"; }

// Layers that act on each unit or channel alone: a removed unit's value never reaches
// another unit through them.
bool passes_units(const Layer& l) {
  return l.type() == "ReLU" || l.type() == "GELU" || l.type() == "Sigmoid" ||
         l.type() == "MaxPool2d";
}

// A producer and the producer that reads its outputs.
struct Link {
  std::size_t producer = 0, consumer = 0;
  std::size_t spatial = 1;  // inputs of the consumer per unit: H·W when a Flatten is between
};

// The links whose producer is prunable (see the header).
std::vector<Link> prunable_links(const Model& model) {
  std::vector<Link> links;
  for (std::size_t i = 0; i < model.size(); ++i) {
    if (!is_producer(model.layer(i))) continue;
    const bool conv = model.layer(i).type() == "Conv2d";
    std::size_t spatial = 1;
    for (std::size_t j = i + 1; j < model.size(); ++j) {
      const Layer& l = model.layer(j);
      if (is_producer(l)) {
        // A Conv2d reads channels; a Linear after a Conv2d reads them only through Flatten.
        const bool fits = l.type() == "Conv2d" ? conv && spatial == 1 : !conv || spatial > 1;
        if (fits) links.push_back({i, j, spatial});
        break;
      }
      if (l.type() == "Flatten" && conv && spatial == 1) {
        const Shape& in = model.layer_input_shape(j);  // (N, C, H, W)
        spatial = in.size() == 4 ? in[2] * in[3] : 0;
        if (spatial == 0) break;
        continue;
      }
      if (!passes_units(l)) break;
    }
  }
  return links;
}

Tensor& weight_of(Layer& l) {
  if (auto* lin = dynamic_cast<Linear*>(&l)) return lin->weight();
  return dynamic_cast<Conv2d&>(l).weight();
}

// Units of a producer: Linear's out, Conv2d's out_channels.
std::size_t units_of(Layer& l) {
  if (auto* lin = dynamic_cast<Linear*>(&l)) return lin->out_features();
  return dynamic_cast<Conv2d&>(l).out_channels();
}

// ‖incoming weights‖₂ of each unit: Linear's column u of W (in, out); Conv2d's filter u
// (C_in·k·k values of W (C_out, C_in, k, k)).
std::vector<double> unit_norms(Layer& l) {
  const Tensor& w = weight_of(l);
  const std::size_t units = units_of(l);
  std::vector<double> sq(units, 0.0);
  const float* p = w.data();
  if (l.type() == "Linear") {
    const std::size_t in = w.size() / units;
    for (std::size_t k = 0; k < in; ++k) {
      for (std::size_t u = 0; u < units; ++u) sq[u] += double(p[k * units + u]) * p[k * units + u];
    }
  } else {
    const std::size_t per = w.size() / units;
    for (std::size_t u = 0; u < units; ++u) {
      for (std::size_t e = 0; e < per; ++e) sq[u] += double(p[u * per + e]) * p[u * per + e];
    }
  }
  for (double& v : sq) v = std::sqrt(v);
  return sq;
}

// The units kept: the `keep` largest norms, ties to the lower index, in index order.
std::vector<std::size_t> kept_units(const std::vector<double>& norms, std::size_t keep) {
  std::vector<std::size_t> order(norms.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return norms[a] > norms[b]; });
  order.resize(keep);
  std::sort(order.begin(), order.end());
  return order;
}

// A layer's parameters copied into its shrunk twin: the kept inputs (rows of W (in, out)) and
// the kept outputs (its columns, and the bias); null keeps all.
void copy_linear(Linear& from, Linear& to, const std::vector<std::size_t>* in_keep,
                 const std::vector<std::size_t>* out_keep) {
  const std::size_t out_old = from.out_features(), in_new = to.in_features(),
                    out_new = to.out_features();
  const float* w = from.weight().data();
  float* v = to.weight().data();
  for (std::size_t k = 0; k < in_new; ++k) {
    const std::size_t ko = in_keep ? (*in_keep)[k] : k;
    for (std::size_t u = 0; u < out_new; ++u) {
      v[k * out_new + u] = w[ko * out_old + (out_keep ? (*out_keep)[u] : u)];
    }
  }
  if (to.has_bias()) {
    for (std::size_t u = 0; u < out_new; ++u) {
      to.bias().data()[u] = from.bias().data()[out_keep ? (*out_keep)[u] : u];
    }
  }
}

// The same for W (C_out, C_in, k, k): the kept filters, and of each the kept input channels.
void copy_conv(Conv2d& from, Conv2d& to, const std::vector<std::size_t>* in_keep,
               const std::vector<std::size_t>* out_keep) {
  const std::size_t kk = from.kernel() * from.kernel();
  const std::size_t cin_old = from.in_channels(), cin_new = to.in_channels(),
                    cout_new = to.out_channels();
  const float* w = from.weight().data();
  float* v = to.weight().data();
  for (std::size_t o = 0; o < cout_new; ++o) {
    const std::size_t oo = out_keep ? (*out_keep)[o] : o;
    for (std::size_t c = 0; c < cin_new; ++c) {
      const std::size_t co = in_keep ? (*in_keep)[c] : c;
      std::copy_n(w + (oo * cin_old + co) * kk, kk, v + (o * cin_new + c) * kk);
    }
  }
  if (to.has_bias()) {
    for (std::size_t o = 0; o < cout_new; ++o) {
      to.bias().data()[o] = from.bias().data()[out_keep ? (*out_keep)[o] : o];
    }
  }
}

}  // namespace

StructuredPrune prune_structured(Model& model, double fraction) {
  if (!(fraction >= 0.0 && fraction < 1.0)) {
    throw ValueError("fraction must be at least 0 and below 1 (0.5 removes half the hidden "
                     "units), got " + format_number(fraction));
  }
  const std::vector<Link> links = prunable_links(model);
  if (links.empty()) {
    throw ValueError("model " + model.name() + " has no hidden units to remove: structured "
                     "pruning shrinks a Linear or Conv2d whose outputs reach the next Linear or "
                     "Conv2d only through ReLU, GELU, Sigmoid, MaxPool2d or (after a Conv2d) "
                     "Flatten; the last one, whose outputs are the model's, keeps them all");
  }
  StructuredPruneReport r;
  r.fraction = fraction;
  r.parameters_before = model.parameter_count();
  r.flops_before = model.flops_per_sample().total();

  // Per layer: the kept outputs (a pruned producer) and the kept inputs (its consumer).
  std::vector<std::optional<std::vector<std::size_t>>> out_keep(model.size()), in_keep(model.size());
  nlohmann::json spec = model_to_json(model);
  for (const Link& link : links) {
    Layer& producer = model.layer(link.producer);
    const std::size_t units = units_of(producer);
    const std::size_t removed = static_cast<std::size_t>(std::llround(fraction * double(units)));
    const std::size_t keep = std::max<std::size_t>(1, units - std::min(removed, units));
    std::vector<std::size_t> kept = kept_units(unit_norms(producer), keep);
    std::vector<std::size_t> inputs;
    for (std::size_t u : kept) {
      for (std::size_t s = 0; s < link.spatial; ++s) inputs.push_back(u * link.spatial + s);
    }
    nlohmann::json& p = spec["layers"][link.producer];
    nlohmann::json& c = spec["layers"][link.consumer];
    p[producer.type() == "Linear" ? "out" : "out_channels"] = keep;
    c[model.layer(link.consumer).type() == "Linear" ? "in" : "in_channels"] = inputs.size();
    r.layers.push_back({link.producer, std::string(producer.type()), units, keep, kept});
    out_keep[link.producer] = std::move(kept);
    in_keep[link.consumer] = std::move(inputs);
  }

  Model shrunk = model_from_json(spec);
  for (std::size_t i = 0; i < model.size(); ++i) {
    const auto* ik = in_keep[i] ? &*in_keep[i] : nullptr;
    const auto* ok = out_keep[i] ? &*out_keep[i] : nullptr;
    if (auto* lin = dynamic_cast<Linear*>(&model.layer(i))) {
      copy_linear(*lin, dynamic_cast<Linear&>(shrunk.layer(i)), ik, ok);
    } else if (auto* conv = dynamic_cast<Conv2d*>(&model.layer(i))) {
      copy_conv(*conv, dynamic_cast<Conv2d&>(shrunk.layer(i)), ik, ok);
    } else {
      // Every other layer keeps its size: its parameters (LayerNorm's, attention's) as they are.
      std::vector<ParameterRef> from = model.layer(i).parameters();
      std::vector<ParameterRef> to = shrunk.layer(i).parameters();
      for (std::size_t k = 0; k < from.size(); ++k) {
        std::copy_n(from[k].value->data(), from[k].value->size(), to[k].value->data());
      }
    }
  }
  r.parameters_after = shrunk.parameter_count();
  r.flops_after = shrunk.flops_per_sample().total();
  return {std::move(shrunk), std::move(r)};
}

nlohmann::json to_json(const StructuredPruneReport& r) {
  nlohmann::json layers = nlohmann::json::array();
  for (const ShrunkLayer& l : r.layers) {
    layers.push_back({{"layer", l.layer}, {"type", l.type}, {"before", l.before}, {"after", l.after}});
  }
  return {{"fraction", r.fraction},
          {"parameters_before", r.parameters_before},
          {"parameters_after", r.parameters_after},
          {"flops_before", r.flops_before},
          {"flops_after", r.flops_after},
          {"layers", layers}};
}

nlohmann::json structured_prune_lineage(const StructuredPruneReport& r,
                                        std::size_t finetune_epochs) {
  nlohmann::json layers = nlohmann::json::array();
  for (const ShrunkLayer& l : r.layers) {
    layers.push_back({{"layer", l.layer}, {"before", l.before}, {"after", l.after}});
  }
  return {{"transform", "prune"},
          {"method", "structured"},
          {"criterion", "l2 norm of incoming weights"},
          {"fraction", r.fraction},
          {"layers", layers},
          {"finetune_epochs", finetune_epochs}};
}

}  // namespace perflab

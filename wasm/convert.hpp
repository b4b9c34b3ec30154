// The one place where JS values become core types and back, plus the error seam:
// guarded() turns any C++ exception into a JS Error carrying the same message, and expose()
// registers a binding so that every call goes through guarded().
// Not for: logic. Anything beyond checking and converting types belongs in core/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <nlohmann/json.hpp>

#include "perflab/base/json_text.hpp"
#include "perflab/tensor/tensor.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab::wasm {

using emscripten::val;

// ---- JS -> C++. Each throws perflab::ValueError naming the parameter, what it got and
// what is allowed, so a wrong type never reaches Embind's own (obscure) conversions.

// A short rendering of any JS value for messages: 5, "abc", [2, -1], undefined, an object.
std::string describe(const val& v);

double to_finite_number(const val& v, const std::string& name);  // not NaN or ±Infinity
int to_int(const val& v, const std::string& name);               // an integer that fits int
std::size_t to_size(const val& v, const std::string& name);      // a non-negative integer
std::uint32_t to_seed(const val& v);                             // an integer in [0, 2^32 - 1]
std::string to_string(const val& v, const std::string& name);
// An array of non-negative integers: [2, 3, 4].
Shape to_shape(const val& v, const std::string& name);
// A Float32Array, a Float64Array or an array of numbers, copied into wasm memory.
std::vector<float> to_float_vector(const val& v, const std::string& name);
std::vector<double> to_double_vector(const val& v, const std::string& name);
// A Uint8Array (raw bytes: IDX files, model files), copied into wasm memory; at most
// max_bytes, refused by its length before anything is copied.
std::vector<std::uint8_t> to_bytes(const val& v, const std::string& name, std::size_t max_bytes);
// Shape first (its errors are the more useful ones), then data; core checks the count.
Tensor to_tensor(const val& data, const std::string& data_name, const val& shape,
                 const std::string& shape_name);
// undefined/null: the defaults. Otherwise a plain object whose keys are among warmup,
// samples, min_sample_ms, max_total_ms and controls (the page's controls the timer's advice
// may name, core's timer_controls_from_json); core validates the ranges.
TimerOptions to_timer_options(const val& options);
// The same, for bindings whose options object carries more than the timer's fields: the keys
// in `extra` are allowed too (the caller reads them with option()), and the error for an
// unknown key lists them beside the timer's.
TimerOptions to_timer_options(const val& options, const std::vector<std::string>& extra);
// The keys of a plain object (not null, not an array), each read as a string named `key_name`;
// anything else is refused as "<must_be>, got <the value>" ("tiles must be an object with
// optional fields tile_m, tile_n and tile_k, got 4"). The bindings' one reader of an object's
// keys; js_args::check_keys refuses those not allowed.
std::vector<std::string> object_keys(const val& object, const std::string& must_be,
                                     const std::string& key_name);
// options undefined/null: nothing to check. Otherwise a plain object whose keys are among
// `allowed`; the error for anything else lists them ("options must be an object with
// optional fields a, b and c, got 3", "unknown option \"x\"; the allowed options are ...").
void check_option_keys(const val& options, const std::vector<std::string>& allowed);
// options[key], or undefined when options is undefined or null.
val option(const val& options, const char* key);
// Through JSON.stringify, so the value must be JSON-serializable (not undefined or a function).
nlohmann::json to_json(const val& v, const std::string& name);
// A model spec as JSON text (the editor's content, spec_from_text) or as an object, named
// "spec" in errors.
nlohmann::json to_spec(const val& spec);

// ---- C++ -> JS: plain objects, arrays and typed arrays only, so JS never holds an Embind
// handle or a view into wasm memory (a view silently empties when memory grows).

val to_val(const nlohmann::json& j);  // through JSON.parse
val to_val(const Shape& shape);       // [2, 3, 4]
val to_val(const Tensor& t);          // {shape, data: Float32Array}, copied out
val copy_to_float32_array(const float* data, std::size_t n);
val copy_to_uint8_array(const std::vector<std::uint8_t>& bytes);  // a Uint8Array, copied out

// ---- Errors.

// A JS Error object with this message (returned, not thrown; see guarded()).
val make_js_error(const char* message);

// Runs fn and returns its result, or, if it throws, a JS Error with the exception's message.
// The Error is *returned* and the JS wrapper that expose() installs throws it: throwing a JS
// exception from inside wasm would skip the destructors of Embind's argument handles and
// leave the wasm stack pointer lowered, leaking on every failed call.
template <class Fn>
val guarded(Fn&& fn) noexcept {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    return make_js_error(
        "out of memory: the WebAssembly heap could not grow (std::bad_alloc); use smaller sizes");
  } catch (const nlohmann::json::exception& e) {
    // A JSON library exception that escaped a reader: core's sentence, never the library's.
    return make_js_error(json_error_reason(e).c_str());
  } catch (const std::exception& e) {
    // perflab::Error and everything else: the message is already the whole story.
    return make_js_error(e.what());
  } catch (...) {
    return make_js_error("internal error: a C++ exception that is not a std::exception");
  }
}

namespace detail {
// Defines Module[name] in JS: pads missing arguments with undefined, rejects extra ones,
// calls Module["raw_" + name] and throws the Error it returns.
void define_js_wrapper(const char* name);

template <auto Fn>
struct Guarded;
template <class... Args, val (*Fn)(Args...)>
struct Guarded<Fn> {
  static val call(Args... args) {
    return guarded([&] { return Fn(std::move(args)...); });
  }
};
}  // namespace detail

// Registers Fn (taking and returning emscripten::val) as Module[name]. Every binding uses
// this, so every call is guarded and no JS exception ever unwinds through wasm frames.
template <auto Fn>
void expose(const char* name) {
  emscripten::function(("raw_" + std::string(name)).c_str(), &detail::Guarded<Fn>::call);
  detail::define_js_wrapper(name);
}

}  // namespace perflab::wasm

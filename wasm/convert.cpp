// Conversions between JS values and core types, and the JS side of the error seam (see
// convert.hpp). Every check happens before Embind converts a value, because Embind's own
// failures are either obscure ("Cannot convert "abc" to double") or JS exceptions thrown
// from inside wasm.
// Not for: validating ranges core already validates (n, option ranges, variant names).
#include "convert.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include <emscripten.h>

#include "perflab/base/error.hpp"
#include "perflab/base/js_args.hpp"
#include "perflab/base/json_text.hpp"
#include "perflab/base/utf8.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/model/model.hpp"

namespace perflab::wasm {

namespace {

constexpr std::size_t kMaxListedElements = 8;  // in messages: [1, 2, 3, ...]
// The most bytes one array of numbers may take once copied in: the largest operand the lab's
// kernels take (kMaxMeasureGeluN floats), so an array is refused (float32: 64 Mi values,
// float64: 32 Mi) before the copy, the tensor and the result could together pass the
// module's memory. Checked on `length` before anything is read, since an array's length
// alone (up to 2^32 − 1, holes included) can cost minutes to walk.
constexpr std::size_t kMaxArrayBytes = kMaxMeasureGeluN * sizeof(float);
// The longest list of sizes (a shape, an MLP's widths, a sweep's sequence lengths): each
// entry becomes a layer or a measured point, so thousands are already a mistake.
constexpr std::size_t kMaxSizeListElements = 10000;

bool is_array(const val& v) { return val::global("Array").call<bool>("isArray", v); }

bool is_float_array(const val& v) {
  return v.instanceof(val::global("Float32Array")) || v.instanceof(val::global("Float64Array"));
}

std::size_t js_length(const val& v) { return static_cast<std::size_t>(v["length"].as<double>()); }

// The first `count` UTF-16 units of the JS string `handle`, written to `out`.
EM_JS(void, perflab_copy_utf16, (emscripten::EM_VAL handle, char16_t* out, double count), {
  var s = Emval.toValue(handle);
  var base = out >> 1;
  for (var i = 0; i < count; ++i) HEAPU16[base + i] = s.charCodeAt(i);
});

// The first `most` UTF-16 units of a JS string.
std::u16string units_of(const val& s, std::size_t most) {
  const std::size_t n = std::min(static_cast<std::size_t>(s["length"].as<double>()), most);
  std::u16string units(n, u'\0');
  perflab_copy_utf16(s.as_handle(), units.data(), static_cast<double>(n));
  return units;
}

// A JS string as UTF-8. Not Embind's conversion, which joins a lone surrogate with the unit
// after it and so swallows that character: core's utf16_to_utf8 writes U+FFFD for the lone
// half alone.
std::string utf8_of(const val& s) {
  return utf16_to_utf8(units_of(s, std::numeric_limits<std::size_t>::max()));
}

std::string js_string(const val& v) { return utf8_of(val::global("String")(v)); }

// Refuses an array longer than `most` by its length, before any element is read.
void check_length(const val& v, const std::string& name, std::size_t most) {
  js_args::check_length(v["length"].as<double>(), name, most);
}

bool is_integer(double d) { return std::isfinite(d) && d == std::trunc(d); }

std::string describe_at(const val& v, int depth) {
  const std::string type = v.typeOf().as<std::string>();
  if (type == "number" || type == "boolean") return js_string(v);
  if (type == "bigint") return js_string(v) + "n";
  if (type == "undefined") return "undefined";
  if (type == "function") return "a function";
  if (type == "symbol") return "a symbol";
  if (type == "string") {
    // Only the units quoted are copied: copying a 200 MB string into wasm to quote 40
    // characters of it could fill the module's memory.
    const std::size_t most = js_args::kMaxQuotedUnits;
    return js_args::quote(units_of(v, most), js_length(v) > most);
  }
  if (v.isNull()) return "null";
  if (is_array(v)) {
    if (depth >= 2) return "[...]";
    const std::size_t n = js_length(v);
    std::string s = "[";
    for (std::size_t i = 0; i < n && i < kMaxListedElements; ++i) {
      if (i > 0) s += ", ";
      s += describe_at(v[i], depth + 1);
    }
    if (n > kMaxListedElements) s += ", ... (" + std::to_string(n) + " elements)";
    return s + "]";
  }
  if (val::global("ArrayBuffer").call<bool>("isView", v) && !v["length"].isUndefined()) {
    return v["constructor"]["name"].as<std::string>() + " of length " +
           std::to_string(js_length(v));
  }
  return "an object";
}

template <class T>
std::vector<T> to_number_vector(const val& v, const std::string& name) {
  const bool array = is_array(v);
  if (!array && !is_float_array(v)) {
    throw ValueError(name + " must be a Float32Array, a Float64Array or an array of numbers, got " +
                     describe(v));
  }
  check_length(v, name, kMaxArrayBytes / sizeof(T));
  const std::size_t n = js_length(v);
  const auto check_each_element = [&] {
    for (std::size_t i = 0; i < n; ++i) {
      const val element = v[i];
      if (!element.isNumber()) {
        throw ValueError(name + "[" + std::to_string(i) + "] must be a number, got " +
                         describe(element));
      }
    }
  };
  // Fast path: one call checks the whole array; only when it fails do we look for the
  // offending element (NaN and ±Infinity are numbers and pass).
  if (array && !v.call<bool>("every", val::global("Number")["isFinite"])) check_each_element();
  // One bulk copy through a view of the fresh vector; nothing allocates between creating
  // the view and using it, so memory growth cannot detach it.
  std::vector<T> out(n);
  val(emscripten::typed_memory_view(n, out.data())).call<void>("set", v);
  // `every` skips the holes of a sparse array, and the copy turns them into NaN: a NaN in a
  // plain array is either a hole (named here) or a NaN the caller gave (core names it).
  if (array && std::any_of(out.begin(), out.end(), [](T x) { return std::isnan(x); })) {
    check_each_element();
  }
  return out;
}

}  // namespace

std::string describe(const val& v) { return describe_at(v, 0); }

// The number a JS value holds (NaN when it is no number), for core's argument rules.
double number_of(const val& v) { return v.isNumber() ? v.as<double>() : NAN; }

double to_finite_number(const val& v, const std::string& name) {
  return js_args::finite_number(number_of(v), name, [&] { return describe(v); });
}

int to_int(const val& v, const std::string& name) {
  return js_args::int32(number_of(v), name, [&] { return describe(v); });
}

std::size_t to_size(const val& v, const std::string& name) {
  // size_t is 32 bits in wasm32.
  return js_args::size(number_of(v), name, [&] { return describe(v); },
                       std::numeric_limits<std::size_t>::max());
}

std::uint32_t to_seed(const val& v) {
  return js_args::seed(number_of(v), [&] { return describe(v); });
}

std::string to_string(const val& v, const std::string& name) {
  if (!v.isString()) throw ValueError(name + " must be a string, got " + describe(v));
  // Refused by length before Embind copies it: its copy calls malloc from JS and writes
  // through the result unchecked, so a string the heap cannot hold must never get there.
  // UTF-16 units: the UTF-8 bytes may be up to 3 times as many; core's parse_json_text
  // then checks the bytes.
  if (js_length(v) > kMaxJsonTextBytes) {
    throw ValueError(name + " is " + std::to_string(js_length(v)) + " characters long; at most " +
                     std::to_string(kMaxJsonTextBytes) + " (16 MiB) are allowed");
  }
  return utf8_of(v);
}

Shape to_shape(const val& v, const std::string& name) {
  const auto refuse = [&] {
    return ValueError(name + " must be an array of non-negative integers, got " + describe(v));
  };
  if (!is_array(v)) throw refuse();
  check_length(v, name, kMaxSizeListElements);
  const std::size_t n = js_length(v);
  Shape shape;
  shape.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const val element = v[i];
    const double d = element.isNumber() ? element.as<double>() : NAN;
    if (!is_integer(d) || d < 0) throw refuse();
    shape.push_back(to_size(element, name + "[" + std::to_string(i) + "]"));
  }
  return shape;
}

std::vector<float> to_float_vector(const val& v, const std::string& name) {
  return to_number_vector<float>(v, name);
}

std::vector<double> to_double_vector(const val& v, const std::string& name) {
  return to_number_vector<double>(v, name);
}

Tensor to_tensor(const val& data, const std::string& data_name, const val& shape,
                 const std::string& shape_name) {
  Shape s = to_shape(shape, shape_name);
  const std::vector<float> values = to_float_vector(data, data_name);
  return Tensor(std::move(s), values);
}

TimerOptions to_timer_options(const val& options) { return to_timer_options(options, {}); }

std::vector<std::string> object_keys(const val& object, const std::string& must_be,
                                     const std::string& key_name) {
  if (object.typeOf().as<std::string>() != "object" || object.isNull() || is_array(object)) {
    throw ValueError(must_be + ", got " + describe(object));
  }
  const val keys = val::global("Object").call<val>("keys", object);
  const std::size_t n = js_length(keys);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < n; ++i) names.push_back(to_string(keys[i], key_name));
  return names;
}

void check_option_keys(const val& options, const std::vector<std::string>& allowed) {
  if (options.isUndefined() || options.isNull()) return;
  const std::string must_be = "options must be an object with optional fields " +
                              js_args::and_list(allowed);
  js_args::check_keys(object_keys(options, must_be, "an option's name"), allowed);
}

TimerOptions to_timer_options(const val& options, const std::vector<std::string>& extra) {
  TimerOptions o;
  std::vector<std::string> allowed = {"warmup", "samples", "min_sample_ms", "max_total_ms"};
  allowed.insert(allowed.end(), extra.begin(), extra.end());
  allowed.push_back("controls");
  check_option_keys(options, allowed);
  if (options.isUndefined() || options.isNull()) return o;
  if (const val controls = options["controls"]; !controls.isUndefined()) {
    o.controls = timer_controls_from_json(to_json(controls, "options.controls"), "options.controls");
  }
  for (const char* key : {"warmup", "samples", "min_sample_ms", "max_total_ms"}) {
    const val value = options[key];
    if (value.isUndefined()) continue;  // {warmup: undefined} means "the default"
    const std::string name = std::string("options.") + key;
    if (std::string_view(key) == "warmup") {
      o.warmup = to_int(value, name);
    } else if (std::string_view(key) == "samples") {
      o.samples = to_int(value, name);
    } else if (std::string_view(key) == "min_sample_ms") {
      o.min_sample_ms = to_finite_number(value, name);
    } else {
      o.max_total_ms = to_finite_number(value, name);
    }
  }
  return o;
}

val option(const val& options, const char* key) {
  return options.isUndefined() || options.isNull() ? val::undefined() : options[key];
}

// JSON.stringify(value) with its exceptions caught in JS: a cyclic object, a BigInt, a
// throwing getter or a nesting deeper than the JS stack would otherwise raise a JS exception
// inside wasm, which skips guarded() and the destructors of the call's handles. Returns the
// text, undefined (nothing to write: a function, undefined), or {name, message} of the error.
EM_JS(emscripten::EM_VAL, perflab_stringify, (emscripten::EM_VAL handle), {
  try {
    return Emval.toHandle(JSON.stringify(Emval.toValue(handle)));
  } catch (e) {
    return Emval.toHandle({name: String(e && e.name), message: String(e && e.message)});
  }
});

nlohmann::json to_json(const val& v, const std::string& name) {
  const val text = val::take_ownership(perflab_stringify(v.as_handle()));
  if (text.isString()) {
    if (js_length(text) > kMaxJsonTextBytes) {
      throw ValueError(name + " is " + std::to_string(js_length(text)) +
                       " characters as JSON; at most " + std::to_string(kMaxJsonTextBytes) +
                       " (16 MiB) are allowed");
    }
    // A lone surrogate in a string of the value: U+FFFD, as in a string argument.
    return parse_json_text(replace_lone_surrogate_escapes(utf8_of(text)), name);
  }
  if (text.isUndefined()) {
    throw ValueError(name + " must be a JSON value such as an object, got " + describe(v));
  }
  if (text["name"].as<std::string>() == "RangeError") {
    throw ValueError(name + " is nested too deeply to read; at most " +
                     std::to_string(kMaxJsonDepth) + " levels are allowed");
  }
  throw ValueError(name + " cannot be written as JSON: " + utf8_of(text["message"]));
}

// Strings that are not UTF-8 (never expected) are written with U+FFFD rather than thrown on.
val to_val(const nlohmann::json& j) {
  return val::global("JSON").call<val>(
      "parse", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

val to_val(const Shape& shape) {
  val out = val::array();
  for (std::size_t i = 0; i < shape.size(); ++i) out.set(i, static_cast<double>(shape[i]));
  return out;
}

val to_val(const Tensor& t) {
  val o = val::object();
  o.set("shape", to_val(t.shape()));
  o.set("data", copy_to_float32_array(t.data(), t.size()));
  return o;
}

nlohmann::json to_spec(const val& spec) {
  if (spec.isString()) return spec_from_text(to_string(spec, "spec"));
  if (spec.isUndefined() || spec.isNull() || spec.typeOf().as<std::string>() != "object") {
    throw ValueError("spec must be a model spec object or its JSON text, got " + describe(spec));
  }
  return to_json(spec, "spec");
}

std::vector<std::uint8_t> to_bytes(const val& v, const std::string& name, std::size_t max_bytes) {
  if (!v.instanceof(val::global("Uint8Array"))) {
    throw ValueError(name + " must be a Uint8Array of bytes, got " + describe(v));
  }
  const std::size_t n = js_length(v);
  if (n > max_bytes) {
    throw ValueError(name + " holds " + std::to_string(n) + " bytes; at most " +
                     std::to_string(max_bytes) + " are allowed");
  }
  std::vector<std::uint8_t> out(n);
  // Nothing allocates between creating the view and using it (see to_number_vector).
  val(emscripten::typed_memory_view(n, out.data())).call<void>("set", v);
  return out;
}

val copy_to_uint8_array(const std::vector<std::uint8_t>& bytes) {
  return val::global("Uint8Array").new_(emscripten::typed_memory_view(bytes.size(), bytes.data()));
}

val copy_to_float32_array(const float* data, std::size_t n) {
  // new Float32Array(view) copies, so the result stays valid after memory grows.
  return val::global("Float32Array").new_(emscripten::typed_memory_view(n, data));
}

// std::string, not const char*: Embind decodes std::string as UTF-8 but a C string as Latin-1,
// and messages contain characters such as "×".
// The message is made valid UTF-8 first (Embind would turn a broken byte into U+FFFD anyway,
// and a sentence cut inside a character is a bug this keeps visible as one character only).
val make_js_error(const char* message) {
  return val::global("Error").new_(valid_utf8(message));
}

// The JS half of expose(). A JS exception raised inside wasm by JS that the bindings call (a
// throwing getter, a Proxy's trap, an own property of a typed array) would bypass guarded()
// and every C++ destructor between, leaking the heap memory those destructors free. So each
// argument is first copied in JS into inert data, which runs every getter and trap before
// wasm is entered; what they throw becomes an Error naming the function. The copy goes four
// levels deep (deeper than any binding reads through val; deeper values reach
// C++ only through JSON.stringify, whose exceptions to_json catches in JS): an object becomes
// a plain object of its own enumerable fields, an array a plain array (one longer than
// kMaxArrayBytes allows only by its length, which is all C++ reads of it), and a typed array a
// fresh view of the same memory (no own properties, the standard prototype; its kind and
// extent read through the intrinsic getters captured here). Should an exception still cross
// wasm, the catch restores the stack pointer and releases the Embind handles the call created
// (each a slot that was free, or past the end of the handle table, before the call). A wasm
// trap or an abort (WebAssembly.RuntimeError) is rethrown as it is, for the worker to replace
// the module.
EM_JS(void, perflab_define_js_wrapper, (const char* name_ptr, double max_array_length), {
  var name = UTF8ToString(name_ptr);
  var rawName = 'raw_' + name;
  var unreadable = function(e) {
    var reason = e instanceof Error ? e.message : String(e);
    return new Error(name + '() could not read its arguments: ' + reason, {cause: e});
  };
  var typed = Object.getPrototypeOf(Int8Array.prototype);
  var getter = function(key) { return Object.getOwnPropertyDescriptor(typed, key).get; };
  var kindOf = getter(Symbol.toStringTag);
  var bufferOf = getter('buffer');
  var offsetOf = getter('byteOffset');
  var lengthOf = getter('length');
  var isArray = Array.isArray;
  var slice = Array.prototype.slice;
  var assign = Object.assign;
  var snapshot = function(v, depth) {
    if (v === null || typeof v !== 'object') return v;
    if (ArrayBuffer.isView(v)) {
      var kind = kindOf.call(v);
      if (kind === undefined) return {};  // a DataView: no binding reads one
      return new globalThis[kind](bufferOf.call(v), offsetOf.call(v), lengthOf.call(v));
    }
    var copy;
    if (isArray(v)) {
      var length = v.length;
      if (length > max_array_length) return new Array(length);
      copy = slice.call(v);
    } else {
      copy = assign({}, v);
    }
    if (depth < 4) {
      var keys = isArray(copy) ? null : Object.keys(copy);
      var n = keys === null ? copy.length : keys.length;
      for (var i = 0; i < n; ++i) {
        var key = keys === null ? i : keys[i];
        var x = copy[key];
        if (x !== null && typeof x === 'object') copy[key] = snapshot(x, depth + 1);
      }
    }
    return copy;
  };
  Module[name] = function() {
    var raw = Module[rawName];
    var args = Array.prototype.slice.call(arguments);
    if (args.length > raw.length) {
      throw new Error(name + '() takes at most ' + raw.length + ' arguments, got ' + args.length);
    }
    while (args.length < raw.length) args.push(undefined);
    try {
      args = args.map(function(v) { return snapshot(v, 0); });
    } catch (e) {
      throw unreadable(e);
    }
    var sp = stackSave();
    var handles = emval_handle_array.length;
    var free = emval_free_list.slice();
    var result;
    try {
      result = raw.apply(null, args);
    } catch (e) {
      // Counted, so the Node fuzzer can hold this path at zero.
      Module['jsExceptionsInsideWasm'] = (Module['jsExceptionsInsideWasm'] || 0) + 1;
      stackRestore(sp);
      var wasFree = new Set(free);
      for (var h = 5; h < emval_handle_array.length; ++h) {
        if (emval_handle_array[h] !== undefined && (h >= handles || wasFree.has(h))) {
          emval_handle_array[h] = undefined;
          emval_free_list.push(h);
        }
      }
      if (e instanceof WebAssembly.RuntimeError) throw e;
      throw unreadable(e);
    }
    if (result instanceof Error) throw result;
    return result;
  };
});

namespace detail {
void define_js_wrapper(const char* name) {
  perflab_define_js_wrapper(name, static_cast<double>(kMaxArrayBytes / sizeof(float)));
}
}  // namespace detail

}  // namespace perflab::wasm

// A struct's JSON from one list of its fields. Reading one typed field of a JSON options
// object, with the error every option reader in core gives: "<field> must be an integer, got
// \"ten\""; and a struct written and read back from one field list (JsonField), so its writer
// and its reader cannot drift apart. Ranges stay with the struct that owns the field (its
// validate()). Not for: whole documents (model.hpp, report.hpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace perflab {

// An integral JSON number (1 or 1.0) that fits a 32-bit int.
int json_int(const nlohmann::json& value, const std::string& field);
// Any JSON number.
double json_number(const nlohmann::json& value, const std::string& field);

// ---- Field lists.
// A struct S joins by declaring, in namespace perflab beside its to_json, the list of its
// JSON fields in the order a reader checks them:
//   inline auto json_fields_of(const Interval*) {
//     return std::make_tuple(JsonField{"low", &Interval::low}, JsonField{"high", &Interval::high});
//   }
// write_fields(s) is then its JSON object and read_fields<S>(json, "where") reads it back,
// each field by the same name. Reading refuses in a sentence naming the field's path:
// "summary.z_interval.low is missing", "summary.n must be a whole number ≥ 0, got -1". Keys
// not in the list are ignored (a writer may add derived fields beside the list's). A member
// of a type with its own list is a nested object; a std::vector is an array; a std::optional
// is null when empty; a nlohmann::json member is written and read as it is. A field that is
// not one member (a verdict written as its name, its words and its sentence) is a
// JsonComputed in the same list, with its writer and its reader side by side.

// What a number field may hold beyond its type. unbounded_as_null: a double that is not
// finite (an infinite effect size, a critical value no order reaches) is written as null,
// which JSON can hold and the page reads as "unbounded"; null reads back as infinity.
// undefined_as_null: the same for a value that is undefined (NaN: a slope of log n at n = 1);
// null reads back as NaN.
enum class JsonRange { any, non_negative, unbounded_as_null, undefined_as_null };

template <class S, class T>
struct JsonField {
  const char* name;
  T S::*member;
  JsonRange range = JsonRange::any;
};
template <class S, class T>
JsonField(const char*, T S::*) -> JsonField<S, T>;
template <class S, class T>
JsonField(const char*, T S::*, JsonRange) -> JsonField<S, T>;

template <class S>
struct JsonComputed {
  const char* name;
  nlohmann::json (*write)(const S&);
  // Reads the field's JSON `v` into s; `field` is its path for errors.
  void (*read)(const nlohmann::json& v, const std::string& field, S& s);
};

// A type with a field list.
template <class T>
concept JsonStruct = requires(const T* p) { json_fields_of(p); };

// Scalar fields read as their C++ type: a finite number (≥ 0 when non_negative), a whole
// number ≥ 0 for an unsigned type (std::size_t, std::uint64_t) or an integer for a signed one
// (int, long), each within the type's range; a string; a boolean. `field` is the path named
// in errors.
void read_json_value(const nlohmann::json& v, const std::string& field, double& out, JsonRange range);
// A float: any JSON number whose float is finite (|v| up to about 3.4e38).
void read_json_value(const nlohmann::json& v, const std::string& field, float& out, JsonRange range);
void read_json_value(const nlohmann::json& v, const std::string& field, std::string& out, JsonRange range);
void read_json_value(const nlohmann::json& v, const std::string& field, bool& out, JsonRange range);
// A member holding JSON as it is (a part another struct's to_json writes, such as a recipe):
// any value, kept.
void read_json_value(const nlohmann::json& v, const std::string& field, nlohmann::json& out,
                     JsonRange range);
// The whole number in `v`, in [0, max] ("must be a whole number ≥ 0, got -1") or in [min, max]
// ("must be an integer, got 2.5"), and the ValueError "<field> must be <expected>, got <v>".
std::uint64_t json_unsigned(const nlohmann::json& v, const std::string& field, std::uint64_t max);
long long json_signed(const nlohmann::json& v, const std::string& field, long long min, long long max);
[[noreturn]] void throw_json_field_type(const nlohmann::json& v, const std::string& field,
                                        const char* expected);

template <class T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
void read_json_value(const nlohmann::json& v, const std::string& field, T& out, JsonRange) {
  if constexpr (std::is_unsigned_v<T>) {
    out = static_cast<T>(json_unsigned(v, field, std::numeric_limits<T>::max()));
  } else {
    out = static_cast<T>(
        json_signed(v, field, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
  }
}

// An enum field written as its name (a JsonComputed's reader): the value among `values`
// whose name(value) is the string `v`; else a ValueError listing the names:
// "comparison.verdict.name must be \"faster\", \"slower\", ... or \"too_few_samples\", got \"quicker\"".
[[noreturn]] void throw_json_enum(const nlohmann::json& v, const std::string& field,
                                  const std::vector<std::string>& names);
template <class E, std::size_t N>
E json_enum(const nlohmann::json& v, const std::string& field, const E (&values)[N],
            const char* (*name)(E)) {
  if (v.is_string()) {
    for (E e : values) {
      if (v.get_ref<const std::string&>() == name(e)) return e;
    }
  }
  std::vector<std::string> names;
  for (E e : values) names.emplace_back(name(e));
  throw_json_enum(v, field, names);
}

// The member of `j` named `key`, or a ValueError "<where>.<key> is missing"; `j` must be an
// object ("<where> must be an object, got 3").
const nlohmann::json& json_member(const nlohmann::json& j, const std::string& where, const char* key);

template <class T>
nlohmann::json write_json_value(const T& value);

template <class S, class T>
void write_field(nlohmann::json& out, const S& s, const JsonField<S, T>& f) {
  if constexpr (std::is_same_v<T, double>) {
    if ((f.range == JsonRange::unbounded_as_null || f.range == JsonRange::undefined_as_null) &&
        !std::isfinite(s.*(f.member))) {
      out[f.name] = nullptr;
      return;
    }
  }
  out[f.name] = write_json_value(s.*(f.member));
}
template <class S>
void write_field(nlohmann::json& out, const S& s, const JsonComputed<S>& f) {
  out[f.name] = f.write(s);
}

template <JsonStruct S>
nlohmann::json write_fields(const S& s) {
  nlohmann::json out = nlohmann::json::object();
  std::apply([&](const auto&... f) { (write_field(out, s, f), ...); }, json_fields_of(&s));
  return out;
}

template <JsonStruct S>
S read_fields(const nlohmann::json& j, const std::string& where);

// An optional member is null in JSON when empty (a figure not measured).
template <class T>
inline constexpr bool kIsJsonOptional = false;
template <class T>
inline constexpr bool kIsJsonOptional<std::optional<T>> = true;

template <class T>
void read_json_value(const nlohmann::json& v, const std::string& field, std::optional<T>& out,
                     JsonRange range) {
  if (v.is_null()) {
    out.reset();
    return;
  }
  T value{};
  read_json_value(v, field, value, range);
  out = std::move(value);
}

template <JsonStruct S>
void read_json_value(const nlohmann::json& v, const std::string& field, S& out, JsonRange) {
  out = read_fields<S>(v, field);
}

template <class T>
void read_json_value(const nlohmann::json& v, const std::string& field, std::vector<T>& out,
                     JsonRange range) {
  if (!v.is_array()) throw_json_field_type(v, field, "an array");
  out.assign(v.size(), T{});
  for (std::size_t i = 0; i < v.size(); ++i) {
    read_json_value(v[i], field + "[" + std::to_string(i) + "]", out[i], range);
  }
}

template <class S, class T>
void read_field(const nlohmann::json& j, const std::string& where, const JsonField<S, T>& f, S& s) {
  read_json_value(json_member(j, where, f.name), where + "." + f.name, s.*(f.member), f.range);
}
template <class S>
void read_field(const nlohmann::json& j, const std::string& where, const JsonComputed<S>& f, S& s) {
  f.read(json_member(j, where, f.name), where + "." + f.name, s);
}

template <JsonStruct S>
S read_fields(const nlohmann::json& j, const std::string& where) {
  S s{};
  std::apply([&](const auto&... f) { (read_field(j, where, f, s), ...); }, json_fields_of(&s));
  return s;
}

template <class T>
nlohmann::json write_json_value(const T& value) {
  if constexpr (JsonStruct<T>) {
    return write_fields(value);
  } else if constexpr (kIsJsonOptional<T>) {
    return value ? write_json_value(*value) : nlohmann::json(nullptr);
  } else if constexpr (std::is_same_v<T, nlohmann::json>) {
    return value;
  } else if constexpr (requires { typename T::value_type; } && !std::is_same_v<T, std::string>) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& x : value) out.push_back(write_json_value(x));
    return out;
  } else {
    return nlohmann::json(value);
  }
}

}  // namespace perflab

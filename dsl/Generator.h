// Generators: pipelines packaged for ahead-of-time compilation, in the style of Halide's.
//
//   class Brighten : public halo::Generator<Brighten> {
//   public:
//       GeneratorParam<int> vector_width{"vector_width", 8, 1, 64};  // default 8, range [1, 64]
//       Input<Buffer<uint8_t>> input{"input", 2};
//       Input<float> gain{"gain"};
//       Output<Buffer<uint8_t>> output{"output", 2};
//       void generate() { output(x, y) = saturating_cast<uint8_t>(input(x, y) * gain); }
//       void schedule() { output.vectorize(x, vector_width); }
//       Var x{"x"}, y{"y"};
//   };
//   HALO_REGISTER_GENERATOR(Brighten, "brighten")
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "Func.h"
#include "Param.h"

namespace halo {

class GeneratorBase;

namespace internal {

struct GeneratorParamBase {
    std::string name;
    virtual ~GeneratorParamBase() = default;
    // Throws CompileError naming the parameter if the text is not a valid value.
    virtual void set_from_string(const std::string &text) = 0;
    virtual std::string value_string() const = 0;
    virtual std::string type_name() const = 0;
};

struct GeneratorIOBase {
    std::string io_name;
    bool io_is_buffer = false;
    bool io_is_output = false;
    Type io_type;
    // An output's value types (several for a Tuple-valued one); empty: io_type alone.
    std::vector<Type> io_types;
    int io_dimensions = 0;
    std::vector<Type> types() const { return io_types.empty() ? std::vector<Type>{io_type} : io_types; }
    virtual ~GeneratorIOBase() = default;
    virtual Func output_func() const { return Func(); }
    // An Input's run-time parameter (its ImageParam's or Param's), for tools that bind inputs
    // themselves (the tile-size sweep); null for outputs.
    virtual std::shared_ptr<ParameterContents> input_parameter() const { return nullptr; }
};

// The generator whose members are being constructed (members register themselves with it).
GeneratorBase *&constructing_generator();
void register_param(GeneratorParamBase *p);
void register_io(GeneratorIOBase *io);

// Strict parsers: the whole text must be the value (no spaces, no trailing characters) and
// within [min, max]; otherwise a CompileError names the parameter and the accepted range.
bool parse_bool(const std::string &text, const std::string &param);
int64_t parse_int(const std::string &text, const std::string &param, int64_t min, int64_t max);
uint64_t parse_uint64(const std::string &text, const std::string &param, uint64_t min, uint64_t max);
double parse_double(const std::string &text, const std::string &param, double min, double max);
Type parse_type(const std::string &text, const std::string &param);
// A LoopLevel as Halide's GeneratorParam<LoopLevel> takes it: "root", "inlined" (or "inline"),
// or "func.var" (the loop var of Func func, by name; checked when the pipeline is lowered).
LoopLevel parse_loop_level(const std::string &text, const std::string &param);
// The items of a list between separators ("a,b,,c" -> a, b, "", c), for command lines.
std::vector<std::string> split_list(const std::string &text, char separator);
// That f may become the Output io (output = f): defined, with io's types and dimensions;
// otherwise a CompileError naming both.
void check_output_func(const GeneratorIOBase &io, const Func &f);
// An output size as the generator driver's and the sweep's -r take it: WxH[x...], whole
// numbers in [1, 2^30], at most 2^31 - 1 points (the redundancy report's loops use 32-bit
// sizes). Throws CompileError quoting `option` and the text.
std::vector<int> parse_output_sizes(const std::string &text, const std::string &option);

}  // namespace internal

class GeneratorBase {
public:
    virtual ~GeneratorBase() = default;
    virtual void generate() = 0;
    virtual void schedule() {}

    const std::vector<internal::GeneratorParamBase *> &params() const { return params_; }
    const std::vector<internal::GeneratorIOBase *> &ios() const { return ios_; }
    // Sets a GeneratorParam from text; throws CompileError for unknown names or bad values.
    void set_param(const std::string &name, const std::string &value);
    // Runs generate() and schedule() once and returns the output Func (of a generator with
    // one Output).
    Func build();
    // The same for any number of Outputs: their Funcs in declaration order.
    std::vector<Func> build_outputs();
    // With auto_schedule=true, after a build: the schedule auto_schedule chose, as C++ ("" else).
    const std::string &auto_schedule_source() const { return auto_schedule_source_; }
    // With auto_schedule=true, after a build: the first output's tile (tile_w 0: strips of
    // tile_h rows), which a sweep refining the automatic schedule starts from.
    int auto_schedule_tile_w() const { return auto_tile_[0]; }
    int auto_schedule_tile_h() const { return auto_tile_[1]; }

    // The target the pipeline is built for (Halide's get_target(), for schedules that depend
    // on it): the driver's target=...; else HALO_TARGET or HL_TARGET, else the host.
    Target get_target() const { return target_ ? *target_ : get_target_from_environment(); }
    void set_target(const Target &t) { target_ = t; }
    // Elements of a type in one vector register of that target (Halide's Generator members).
    template <typename T>
    int natural_vector_size() const {
        return get_target().natural_vector_size(type_of<T>());
    }
    int natural_vector_size(const Type &t) const { return get_target().natural_vector_size(t); }

protected:
    GeneratorBase() { internal::constructing_generator() = this; }

private:
    friend void internal::register_param(internal::GeneratorParamBase *);
    friend void internal::register_io(internal::GeneratorIOBase *);
    std::vector<internal::GeneratorParamBase *> params_;
    std::vector<internal::GeneratorIOBase *> ios_;
    bool built_ = false;
    std::vector<Func> outputs_;
    std::string auto_schedule_source_;
    int auto_tile_[2] = {0, 0};
    std::optional<Target> target_;  // set by set_target (else from the environment)
    bool auto_schedule_requested() const;  // the built-in GeneratorParam auto_schedule
    std::string builtin_param(const std::string &name) const;  // the value of a built-in GeneratorParam
};


// A parameter of the generator, set from the command line as name=value. Numbers may declare
// the range they accept ({"name", default, min, max}); integers are always limited to what T
// holds and floating-point values to finite ones, so no text turns into a silently wrong value.
template <typename T>
class GeneratorParam : public internal::GeneratorParamBase {
    static constexpr bool is_number = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;
    // The bounds' type: T for numbers (unused otherwise).
    using Bound = std::conditional_t<is_number, T, int>;

public:
    GeneratorParam(const std::string &n, T def) : value_(def) {
        name = n;
        internal::register_param(this);
    }
    // A number accepted only in [min, max] (checked when set from text and by set()).
    template <typename U = T, typename = std::enable_if_t<std::is_same_v<U, T> && is_number>>
    GeneratorParam(const std::string &n, T def, T min, T max) : value_(def), min_(min), max_(max), ranged_(true) {
        name = n;
        user_assert(min <= max && def >= min && def <= max)
            << "GeneratorParam '" << n << "' has default " << +def << " outside its range [" << +min << ", " << +max
            << "]";
        internal::register_param(this);
    }
    // An enum-like parameter: the value is one of the named choices.
    GeneratorParam(const std::string &n, T def, std::map<std::string, T> choices)
        : value_(def), choices_(std::move(choices)) {
        name = n;
        internal::register_param(this);
    }
    operator T() const { return value_; }
    // A number is also an Expr of its type (GeneratorParam<int> -> int32, <float> -> float32,
    // <bool> -> bool), as in Halide: tile(x, y, xi, yi, tile_w, tile_h) takes it as a factor.
    template <typename U = T, typename = std::enable_if_t<std::is_same_v<U, T> && std::is_arithmetic_v<U>>>
    operator Expr() const {
        if constexpr (std::is_floating_point_v<T>) return make_const(type_of<T>(), double(value_));
        else return make_const(type_of<T>(), int64_t(value_));
    }
    T value() const { return value_; }
    void set(T v) {
        if constexpr (is_number) {
            user_assert(v >= min_ && v <= max_)  // also false for NaN
                << "GeneratorParam '" << name << "' accepts values in " << range_string() << "; " << +v
                << " is out of range";
        }
        if constexpr (std::is_same_v<T, LoopLevel>) {
            // As Halide's: whatever was scheduled with this parameter's LoopLevel follows the
            // new level, and the parameter then shares v's handle.
            value_.set(v);
        }
        value_ = v;
    }
    // "[min, max]" for numbers, "" otherwise.
    std::string range_string() const {
        if constexpr (is_number) {
            std::ostringstream s;
            s << "[" << +min_ << ", " << +max_ << "]";
            return s.str();
        } else {
            return "";
        }
    }

    void set_from_string(const std::string &text) override {
        if (!choices_.empty()) {
            auto it = choices_.find(text);
            std::string names;
            for (auto &c : choices_) names += (names.empty() ? "" : ", ") + c.first;
            user_assert(it != choices_.end()) << "GeneratorParam '" << name << "' has no value '" << text
                                              << "'; choose one of: " << names;
            value_ = it->second;
            return;
        }
        if constexpr (std::is_same_v<T, bool>) {
            value_ = internal::parse_bool(text, name);
        } else if constexpr (std::is_integral_v<T>) {
            if constexpr (std::is_unsigned_v<T> && sizeof(T) == 8) {
                value_ = T(internal::parse_uint64(text, name, uint64_t(min_), uint64_t(max_)));
            } else {
                value_ = T(internal::parse_int(text, name, int64_t(min_), int64_t(max_)));
            }
        } else if constexpr (std::is_floating_point_v<T>) {
            value_ = T(internal::parse_double(text, name, double(min_), double(max_)));
        } else if constexpr (std::is_same_v<T, Type>) {
            value_ = internal::parse_type(text, name);
        } else if constexpr (std::is_same_v<T, std::string>) {
            value_ = text;
        } else if constexpr (std::is_same_v<T, LoopLevel>) {
            set(internal::parse_loop_level(text, name));
        } else {
            user_error << "GeneratorParam '" << name << "' cannot be set from text";
        }
    }
    std::string value_string() const override {
        for (auto &c : choices_) {
            if (c.second == value_) return c.first;
        }
        if constexpr (std::is_same_v<T, bool>) return value_ ? "true" : "false";
        else if constexpr (std::is_arithmetic_v<T>) return std::to_string(value_);
        else if constexpr (std::is_same_v<T, Type>) return value_.to_string();
        else if constexpr (std::is_same_v<T, std::string>) return value_;
        else if constexpr (std::is_same_v<T, LoopLevel>) return value_.is_inlined() ? "inlined" : value_.to_string();
        else return "?";
    }
    std::string type_name() const override {
        if (!choices_.empty()) {
            std::string names;
            for (auto &c : choices_) names += (names.empty() ? "" : "|") + c.first;
            return "enum {" + names + "}";
        }
        if constexpr (std::is_same_v<T, bool>) return "bool";
        else if constexpr (std::is_integral_v<T>) return ranged_ ? "int in " + range_string() : "int";
        else if constexpr (std::is_floating_point_v<T>) return ranged_ ? "float in " + range_string() : "float";
        else if constexpr (std::is_same_v<T, Type>) return "type";
        else if constexpr (std::is_same_v<T, LoopLevel>) return "LoopLevel (root, inlined or func.var)";
        else return "string";
    }

private:
    T value_;
    std::map<std::string, T> choices_;
    Bound min_ = default_min(), max_ = default_max();
    bool ranged_ = false;  // a range was declared (shown by --help)

    // Without a declared range: anything T holds (finite, for floating point).
    static constexpr Bound default_min() {
        if constexpr (is_number) return std::numeric_limits<T>::lowest();
        else return 0;
    }
    static constexpr Bound default_max() {
        if constexpr (is_number) return std::numeric_limits<T>::max();
        else return 0;
    }
};

// The base of a user's generator (class G : public Generator<G>). Every generator has Halide
// 14's built-in parameter auto_schedule (default false): when true, schedule() should set the
// outputs' estimates (output.set_estimates(...)) rather than schedule, and after it every
// output is scheduled by auto_schedule (the driver's -e schedule writes what it chose).
// auto_tile_w and auto_tile_h (0: chosen) give the outputs' tile sizes to auto_schedule
// instead, which is how a sweep refines the automatic schedule (halo-sweep --refine-auto).
template <typename T>
class Generator : public GeneratorBase {
public:
    GeneratorParam<bool> auto_schedule{"auto_schedule", false};
    GeneratorParam<int> auto_tile_w{"auto_tile_w", 0, 0, 1 << 20};
    GeneratorParam<int> auto_tile_h{"auto_tile_h", 0, 0, 1 << 20};
};

// Operators with a GeneratorParam on either side use its value as a C++ number, so the
// literal rules apply (Expr + GeneratorParam<int> has the Expr's type, as Expr + 3 does) and
// two C++ numbers give a C++ number; without them either conversion would be ambiguous.
#define HALO_GENERATOR_PARAM_OPERATOR(op)                                                              \
    template <typename Other, typename T>                                                             \
    auto operator op(const Other &a, const GeneratorParam<T> &b)->decltype(a op T(b)) {               \
        return a op T(b);                                                                             \
    }                                                                                                 \
    template <typename Other, typename T>                                                             \
    auto operator op(const GeneratorParam<T> &a, const Other &b)->decltype(T(a) op b) {               \
        return T(a) op b;                                                                             \
    }                                                                                                 \
    template <typename T, typename U>                                                                 \
    auto operator op(const GeneratorParam<T> &a, const GeneratorParam<U> &b)->decltype(T(a) op U(b)) { \
        return T(a) op U(b);                                                                          \
    }
HALO_GENERATOR_PARAM_OPERATOR(+)
HALO_GENERATOR_PARAM_OPERATOR(-)
HALO_GENERATOR_PARAM_OPERATOR(*)
HALO_GENERATOR_PARAM_OPERATOR(/)
HALO_GENERATOR_PARAM_OPERATOR(%)
HALO_GENERATOR_PARAM_OPERATOR(<)
HALO_GENERATOR_PARAM_OPERATOR(<=)
HALO_GENERATOR_PARAM_OPERATOR(>)
HALO_GENERATOR_PARAM_OPERATOR(>=)
HALO_GENERATOR_PARAM_OPERATOR(==)
HALO_GENERATOR_PARAM_OPERATOR(!=)
HALO_GENERATOR_PARAM_OPERATOR(&&)
HALO_GENERATOR_PARAM_OPERATOR(||)
#undef HALO_GENERATOR_PARAM_OPERATOR
template <typename T>
auto operator-(const GeneratorParam<T> &a) -> decltype(-T(a)) {
    return -T(a);
}
template <typename T>
auto operator!(const GeneratorParam<T> &a) -> decltype(!T(a)) {
    return !T(a);
}
// min and max of an Expr and a GeneratorParam (the literal rules, as above).
template <typename T>
Expr min(const Expr &a, const GeneratorParam<T> &b) {
    return min(a, T(b));
}
template <typename T>
Expr min(const GeneratorParam<T> &a, const Expr &b) {
    return min(T(a), b);
}
template <typename T>
Expr max(const Expr &a, const GeneratorParam<T> &b) {
    return max(a, T(b));
}
template <typename T>
Expr max(const GeneratorParam<T> &a, const Expr &b) {
    return max(T(a), b);
}

template <typename T>
class Input;
template <typename T>
class Output;

namespace internal {

// What the buffer inputs share: an ImageParam that is the generator's input.
class InputImage : public ImageParam, public GeneratorIOBase {
public:
    InputImage(const std::string &n, Type t, int dims) : ImageParam(t, dims, n) {
        io_name = n;
        io_is_buffer = true;
        io_type = t;
        io_dimensions = dims;
        register_io(this);
    }
    using ImageParam::operator();
    std::shared_ptr<ParameterContents> input_parameter() const override { return parameter(); }
};

}  // namespace internal

// A buffer input: an ImageParam of element type T.
template <typename T>
class Input<Buffer<T>> : public internal::InputImage {
public:
    Input(const std::string &n, int dims) : internal::InputImage(n, type_of<T>(), dims) {}
};

// An input declared by its type and dimensions and used as a Func (Halide's Input<Func>:
// Input<Func> in{"in", Float(32), 2}): compiled, it is an input buffer, as Input<Buffer<T>> is.
template <>
class Input<Func> : public internal::InputImage {
public:
    Input(const std::string &n, Type t, int dims) : internal::InputImage(n, t, dims) {}
};

// A scalar input: a Param<T>.
template <typename T>
class Input : public Param<T>, public internal::GeneratorIOBase {
public:
    explicit Input(const std::string &n) : Param<T>(n) {
        io_name = n;
        io_type = type_of<T>();
        internal::register_io(this);
    }
    // With a default value (Halide's Input<T>{name, value}), which stays until set.
    Input(const std::string &n, T value) : Input(n) { this->set(value); }
    // With the range of its values (Halide's Input<T>{name, default, min, max}): a call with a
    // value outside it fails before anything runs.
    Input(const std::string &n, T value, const Expr &min, const Expr &max) : Input(n, value) {
        this->set_range(min, max);
    }
    std::shared_ptr<ParameterContents> input_parameter() const override { return this->parameter(); }
};

namespace internal {

// What every kind of Output shares: a Func that is the generator's output (Derived is the
// Output class, which the setters return).
template <typename Derived>
class OutputFunc : public Func, public GeneratorIOBase {
public:
    explicit OutputFunc(const std::string &n) : Func(n) {}
    Func output_func() const override { return *this; }
    using Func::operator();
    // Halide's output = f: the output is the Func f (its definitions and schedule), which must
    // have the Output's type and dimensions.
    Derived &operator=(const Func &f) {
        check_output_func(*this, f);
        Func::operator=(f);
        return static_cast<Derived &>(*this);
    }
    // Halide's output.dim(d): the output buffer's dimension, to read or constrain.
    Dimension dim(int d) const { return output_buffer().dim(d); }
    Derived &set_host_alignment(int bytes) {
        output_buffer().set_host_alignment(bytes);
        return static_cast<Derived &>(*this);
    }
};

}  // namespace internal

// The output: a Func whose values have type T.
template <typename T>
class Output<Buffer<T>> : public internal::OutputFunc<Output<Buffer<T>>> {
public:
    Output(const std::string &n, int dims) : internal::OutputFunc<Output>(n) {
        this->io_name = n;
        this->io_is_buffer = true;
        this->io_is_output = true;
        this->io_type = type_of<T>();
        this->io_dimensions = dims;
        internal::register_io(this);
    }
    using internal::OutputFunc<Output>::operator=;
};

// A scalar output (Halide's Output<float>): a Func of no dimensions, output() = e; compiled,
// the function writes it to a 0-dimensional buffer.
template <typename T>
class Output : public internal::OutputFunc<Output<T>> {
    static_assert(std::is_arithmetic_v<T>, "Output<T>: T is a scalar type, Buffer<T> or Func");

public:
    explicit Output(const std::string &n) : internal::OutputFunc<Output>(n) {
        this->io_name = n;
        this->io_is_buffer = true;
        this->io_is_output = true;
        this->io_type = type_of<T>();
        this->io_dimensions = 0;
        internal::register_io(this);
    }
    using internal::OutputFunc<Output>::operator=;
};

// An output declared by its value type(s) and dimensions (Halide's Output<Func>):
// Output<Func> out{"out", Float(32), 2}, or {"out", {Int(32), Float(32)}, 1} for a Tuple.
template <>
class Output<Func> : public internal::OutputFunc<Output<Func>> {
public:
    Output(const std::string &n, Type t, int dims) : Output(n, std::vector<Type>{t}, dims) {}
    Output(const std::string &n, const std::vector<Type> &types, int dims) : internal::OutputFunc<Output>(n) {
        user_assert(!types.empty()) << "Output '" << n << "' declared with no types";
        io_name = n;
        io_is_buffer = true;
        io_is_output = true;
        io_type = types[0];
        io_types = types;
        io_dimensions = dims;
        internal::register_io(this);
    }
    using internal::OutputFunc<Output>::operator=;
};

// The registry of generators linked into this program.
struct GeneratorRegistry {
    using Factory = std::function<std::unique_ptr<GeneratorBase>()>;
    static std::map<std::string, Factory> &factories();
    static std::unique_ptr<GeneratorBase> create(const std::string &name);
    static std::vector<std::string> names();
};

struct RegisterGenerator {
    RegisterGenerator(const std::string &name, GeneratorRegistry::Factory f);
};

}  // namespace halo

#define HALO_CONCAT_IMPL_(a, b) a##b
#define HALO_CONCAT_(a, b) HALO_CONCAT_IMPL_(a, b)
#define HALO_REGISTER_GENERATOR(CLASS, NAME)                                                      \
    static ::halo::RegisterGenerator HALO_CONCAT_(halo_generator_registration_, __COUNTER__)(     \
        NAME, [] {                                                                                \
            auto g = std::unique_ptr<::halo::GeneratorBase>(new CLASS());                         \
            ::halo::internal::constructing_generator() = nullptr;                                 \
            return g;                                                                             \
        });

// Halide's spelling: the generator's name as an identifier, HALIDE_REGISTER_GENERATOR(Blur,
// blur), with an optional third argument (Halide's stub name, unused here).
#define HALO_REGISTER_GENERATOR_BY_IDENTIFIER_(CLASS, NAME, ...) HALO_REGISTER_GENERATOR(CLASS, #NAME)
#define HALIDE_REGISTER_GENERATOR(...) HALO_REGISTER_GENERATOR_BY_IDENTIFIER_(__VA_ARGS__, unused)

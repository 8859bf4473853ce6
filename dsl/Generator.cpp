#include "Generator.h"

#include "lower/AutoSchedule.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace halo {
namespace internal {

GeneratorBase *&constructing_generator() {
    static thread_local GeneratorBase *g = nullptr;
    return g;
}

void register_param(GeneratorParamBase *p) {
    GeneratorBase *g = constructing_generator();
    user_assert(g) << "GeneratorParam '" << p->name << "' declared outside a Generator";
    g->params_.push_back(p);
}

void register_io(GeneratorIOBase *io) {
    GeneratorBase *g = constructing_generator();
    user_assert(g) << "Input/Output '" << io->io_name << "' declared outside a Generator";
    g->ios_.push_back(io);
}

bool parse_bool(const std::string &text, const std::string &param) {
    if (text == "true" || text == "1") return true;
    if (text == "false" || text == "0") return false;
    user_error << "GeneratorParam '" << param << "' is a bool; '" << text << "' is not true or false";
    return false;
}

namespace {

// The text is a number only if it starts like one: strtoll and strtod would skip spaces.
bool starts_like_number(const std::string &text) {
    if (text.empty()) return false;
    char c = text[0];
    return std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' || c == '.';
}

}  // namespace

int64_t parse_int(const std::string &text, const std::string &param, int64_t min, int64_t max) {
    auto what = [&] { return "GeneratorParam '" + param + "' is an integer in [" + std::to_string(min) + ", " +
                             std::to_string(max) + "]; '" + text + "' "; };
    char *end = nullptr;
    errno = 0;
    long long v = starts_like_number(text) ? std::strtoll(text.c_str(), &end, 10) : 0;
    user_assert(end && end != text.c_str() && *end == 0) << what() << "is not an integer";
    user_assert(errno != ERANGE && v >= min && v <= max) << what() << "is out of range";
    return v;
}

// (strtoull would take "-1" as 2^64 - 1: a sign is not a digit here.)
uint64_t parse_uint64(const std::string &text, const std::string &param, uint64_t min, uint64_t max) {
    auto what = [&] { return "GeneratorParam '" + param + "' is an integer in [" + std::to_string(min) + ", " +
                             std::to_string(max) + "]; '" + text + "' "; };
    char *end = nullptr;
    errno = 0;
    const size_t first = !text.empty() && text[0] == '+' ? 1 : 0;
    const bool digits = text.size() > first && std::isdigit(static_cast<unsigned char>(text[first]));
    unsigned long long v = digits ? std::strtoull(text.c_str(), &end, 10) : 0;
    user_assert(digits || text.empty() || text[0] != '-') << what() << "is out of range";
    user_assert(end && end != text.c_str() && *end == 0) << what() << "is not an integer";
    user_assert(errno != ERANGE && v >= min && v <= max) << what() << "is out of range";
    return v;
}

double parse_double(const std::string &text, const std::string &param, double min, double max) {
    std::ostringstream range;
    range << "[" << min << ", " << max << "]";
    auto what = [&] { return "GeneratorParam '" + param + "' is a number in " + range.str() + "; '" + text + "' "; };
    char *end = nullptr;
    double v = starts_like_number(text) ? std::strtod(text.c_str(), &end) : 0;
    user_assert(end && end != text.c_str() && *end == 0) << what() << "is not a number";
    user_assert(std::isfinite(v) && v >= min && v <= max) << what() << "is out of range";
    return v;
}

std::vector<std::string> split_list(const std::string &text, char separator) {
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
        size_t end = text.find(separator, start);
        out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) return out;
        start = end + 1;
    }
}

std::vector<int> parse_output_sizes(const std::string &text, const std::string &option) {
    constexpr int64_t max_extent = int64_t(1) << 30, max_points = (int64_t(1) << 31) - 1;
    const std::string where = option + " '" + text + "': ";
    std::vector<int> sizes;
    int64_t points = 1;
    for (auto &item : split_list(text, 'x')) {
        bool digits = !item.empty();
        for (char c : item) digits = digits && std::isdigit(static_cast<unsigned char>(c));
        user_assert(digits) << where << "'" << item << "' is not a positive whole number; give the output size as "
                            << "WxH[x...], e.g. " << option << " 256x256x32";
        // More than 10 digits is out of range anyway (and would overflow the conversion).
        int64_t v = item.size() > 10 ? max_extent + 1 : std::stoll(item);
        user_assert(v >= 1 && v <= max_extent)
            << where << "extent " << item << " is out of range; each extent must be in [1, " << max_extent << "]";
        points *= v;  // at most (2^31 - 1) * 2^30: no overflow
        user_assert(points <= max_points)
            << where << "the output would have more than " << max_points << " points; ask for a smaller size";
        sizes.push_back(int(v));
    }
    return sizes;
}

Type parse_type(const std::string &text, const std::string &param) {
    static const std::map<std::string, Type> types = {
        {"uint8", UInt(8)}, {"uint16", UInt(16)}, {"uint32", UInt(32)}, {"int8", Int(8)},
        {"int16", Int(16)}, {"int32", Int(32)},   {"float32", Float(32)}, {"float64", Float(64)},
        {"bool", Bool()}};
    auto it = types.find(text);
    user_assert(it != types.end()) << "GeneratorParam '" << param << "' is a type; '" << text
                                   << "' is not one of uint8, uint16, uint32, int8, int16, int32, "
                                   << "float32, float64, bool";
    return it->second;
}

LoopLevel parse_loop_level(const std::string &text, const std::string &param) {
    if (text == "root") return LoopLevel::root();
    if (text == "inlined" || text == "inline") return LoopLevel::inlined();
    size_t dot = text.find('.');
    user_assert(dot != std::string::npos && dot > 0 && dot + 1 < text.size() &&
                text.find_first_of(" \t") == std::string::npos)
        << "GeneratorParam '" << param << "' is a LoopLevel; '" << text
        << "' is not root, inlined or func.var (a Func's name and one of its loop variables)";
    return LoopLevel::at(text.substr(0, dot), text.substr(dot + 1));
}

}  // namespace internal

void GeneratorBase::set_param(const std::string &name, const std::string &value) {
    for (auto *p : params_) {
        if (p->name == name) {
            p->set_from_string(value);
            return;
        }
    }
    std::string known;
    for (auto *p : params_) known += (known.empty() ? "" : ", ") + p->name;
    user_error << "Unknown generator parameter '" << name << "'"
               << (known.empty() ? std::string("; this generator has none") : "; known parameters: " + known);
}

namespace {
std::string type_list(const std::vector<Type> &types) {
    if (types.size() == 1) return types[0].to_string();
    std::string s = "a Tuple of {";
    for (size_t i = 0; i < types.size(); i++) s += (i ? ", " : "") + types[i].to_string();
    return s + "}";
}
}  // namespace

std::vector<Func> GeneratorBase::build_outputs() {
    if (built_) return outputs_;
    {
        // While generate() runs, a scalar Input without a value has none to give a realize() inside
        // it (Halide refuses that too): mark those Inputs for the time of the call.
        std::vector<std::shared_ptr<ParameterContents>> marked;
        for (auto *io : ios_) {
            if (io->io_is_output || io->io_is_buffer) continue;
            std::shared_ptr<ParameterContents> p = io->input_parameter();
            if (p && !p->scalar_set) {
                p->generating_without_value = true;
                marked.push_back(p);
            }
        }
        struct Unmark {
            std::vector<std::shared_ptr<ParameterContents>> &params;
            ~Unmark() {
                for (auto &p : params) p->generating_without_value = false;
            }
        } unmark{marked};
        generate();
    }
    schedule();
    for (auto *io : ios_) {
        if (!io->io_is_output) continue;
        Func out = io->output_func();
        user_assert(out.defined()) << "Generator output '" << io->io_name << "' was not defined by generate()";
        user_assert(out.output_types() == io->types())
            << "Generator output '" << io->io_name << "' is declared " << type_list(io->types())
            << " but generate() defines it as " << type_list(out.output_types());
        user_assert(out.dimensions() == io->io_dimensions)
            << "Generator output '" << io->io_name << "' is declared with " << io->io_dimensions
            << " dimensions but defined with " << out.dimensions();
        outputs_.push_back(out);
    }
    user_assert(!outputs_.empty()) << "A Halo generator needs at least one Output (this one has none)";
    if (auto_schedule_requested()) {
        for (auto &out : outputs_) {
            user_assert(!out.function()->estimates.empty())
                << "Generator output '" << out.name() << "' has no estimates, which auto_schedule=true needs: in "
                << "schedule(), when auto_schedule is true, give them with " << out.name()
                << ".set_estimates({{min, extent}, ...})";
            AutoScheduleOptions options;
            options.tile_w = std::atoi(builtin_param("auto_tile_w").c_str());
            options.tile_h = std::atoi(builtin_param("auto_tile_h").c_str());
            AutoScheduleResult chosen = halo::auto_schedule(out, options);
            auto_schedule_source_ += "// " + out.name() + "\n" + chosen.source;
            if (&out == &outputs_[0]) {
                auto_tile_[0] = chosen.tile_w;
                auto_tile_[1] = chosen.tile_h;
            }
        }
    }
    built_ = true;
    return outputs_;
}

std::string GeneratorBase::builtin_param(const std::string &name) const {
    for (auto *p : params_)
        if (p->name == name) return p->value_string();
    return "";
}

bool GeneratorBase::auto_schedule_requested() const { return builtin_param("auto_schedule") == "true"; }

Func GeneratorBase::build() {
    std::vector<Func> outs = build_outputs();
    user_assert(outs.size() == 1) << "This generator has " << outs.size() << " Outputs; build() returns one Func, "
                                  << "so use build_outputs() (or a Pipeline of them)";
    return outs[0];
}

std::map<std::string, GeneratorRegistry::Factory> &GeneratorRegistry::factories() {
    static std::map<std::string, Factory> f;
    return f;
}

std::unique_ptr<GeneratorBase> GeneratorRegistry::create(const std::string &name) {
    auto it = factories().find(name);
    if (it == factories().end()) {
        std::string known;
        for (auto &n : names()) known += (known.empty() ? "" : ", ") + n;
        user_error << "Unknown generator '" << name << "'; this program has: " << (known.empty() ? "none" : known);
    }
    return it->second();
}

std::vector<std::string> GeneratorRegistry::names() {
    std::vector<std::string> n;
    for (auto &f : factories()) n.push_back(f.first);
    return n;
}

void internal::check_output_func(const GeneratorIOBase &io, const Func &f) {
    user_assert(f.defined()) << "Output '" << io.io_name << "' set to Func '" << f.name()
                             << "', which has no definition yet; define it before assigning it to the Output";
    user_assert(f.dimensions() == io.io_dimensions)
        << "Output '" << io.io_name << "' has " << io.io_dimensions << " dimensions but was set to Func '" << f.name()
        << "' with " << f.dimensions();
    std::vector<Type> want = io.types(), got = f.output_types();
    auto list = [](const std::vector<Type> &ts) {
        std::string s;
        for (const Type &t : ts) s += (s.empty() ? "" : ", ") + t.to_string();
        return s;
    };
    user_assert(want == got) << "Output '" << io.io_name << "' has type " << list(want) << " but was set to Func '"
                             << f.name() << "' of type " << list(got);
}

RegisterGenerator::RegisterGenerator(const std::string &name, GeneratorRegistry::Factory f) {
    GeneratorRegistry::factories()[name] = std::move(f);
}

}  // namespace halo

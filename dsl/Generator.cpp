#include "Generator.h"

#include <cstdlib>

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

int64_t parse_int(const std::string &text, const std::string &param) {
    char *end = nullptr;
    long long v = std::strtoll(text.c_str(), &end, 10);
    user_assert(!text.empty() && end && *end == 0)
        << "GeneratorParam '" << param << "' is an integer; '" << text << "' is not one";
    return v;
}

double parse_double(const std::string &text, const std::string &param) {
    char *end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    user_assert(!text.empty() && end && *end == 0)
        << "GeneratorParam '" << param << "' is a number; '" << text << "' is not one";
    return v;
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

Func GeneratorBase::build() {
    if (built_) return output_;
    generate();
    schedule();
    int outputs = 0;
    for (auto *io : ios_) {
        if (!io->io_is_output) continue;
        outputs++;
        output_ = io->output_func();
        user_assert(output_.defined()) << "Generator output '" << io->io_name << "' was not defined by generate()";
        user_assert(output_.output_type() == io->io_type)
            << "Generator output '" << io->io_name << "' is declared " << io->io_type.to_string()
            << " but generate() defines it as " << output_.output_type().to_string();
        user_assert(output_.dimensions() == io->io_dimensions)
            << "Generator output '" << io->io_name << "' is declared with " << io->io_dimensions
            << " dimensions but defined with " << output_.dimensions();
    }
    user_assert(outputs == 1) << "A Halo generator needs exactly one Output (this one has " << outputs << ")";
    built_ = true;
    return output_;
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

RegisterGenerator::RegisterGenerator(const std::string &name, GeneratorRegistry::Factory f) {
    GeneratorRegistry::factories()[name] = std::move(f);
}

}  // namespace halo

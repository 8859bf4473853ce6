// The generator driver: the main() of a generator executable. It compiles one registered
// generator ahead of time, with its GeneratorParams set from the command line.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "dsl/Halo.h"

using namespace halo;

namespace {

const char *usage =
    "usage: %s -g GENERATOR -o DIR [-f FUNCTION] [-e EMIT,...] [-r SIZES] [target=TARGET] [param=value ...]\n"
    "       %s --help\n"
    "\n"
    "  -g GENERATOR   which registered generator to compile\n"
    "  -o DIR         where to write the outputs\n"
    "  -f FUNCTION    name of the generated C function and files (default: the generator's name)\n"
    "  -e EMIT        comma-separated: static_library, h, o, stmt, ll, s, report\n"
    "                 (default: static_library,h)\n"
    "  -r SIZES       output size for the redundancy report, e.g. 256x256x32\n"
    "  target=TARGET  host, x86-64-sse41, x86-64-avx2 or x86-64-avx512 (default: host)\n"
    "  param=value    sets a GeneratorParam\n";

std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, sep)) {
        if (!item.empty()) out.push_back(item);
    }
    return out;
}

void print_help(const char *argv0) {
    std::printf(usage, argv0, argv0);
    std::printf("\ngenerators:\n");
    for (auto &name : GeneratorRegistry::names()) {
        auto g = GeneratorRegistry::create(name);
        std::printf("  %s\n", name.c_str());
        for (auto *io : g->ios()) {
            std::printf("    %-8s %-20s %s%s\n", io->io_is_output ? "output" : "input", io->io_name.c_str(),
                        io->io_type.to_string().c_str(),
                        io->io_is_buffer ? (" buffer, " + std::to_string(io->io_dimensions) + "-D").c_str() : "");
        }
        for (auto *p : g->params()) {
            std::printf("    %-8s %-20s %s (default %s)\n", "param", p->name.c_str(), p->type_name().c_str(),
                        p->value_string().c_str());
        }
    }
}

int run(int argc, char **argv) {
    std::string generator, dir, function, emit_list = "static_library,h", sizes_text, target_name = "host";
    std::vector<std::pair<std::string, std::string>> params;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            user_assert(i + 1 < argc) << "Option " << a << " needs a value";
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            print_help(argv[0]);
            return 0;
        } else if (a == "-g") {
            generator = value();
        } else if (a == "-o") {
            dir = value();
        } else if (a == "-f") {
            function = value();
        } else if (a == "-e") {
            emit_list = value();
        } else if (a == "-r") {
            sizes_text = value();
        } else if (a.find('=') != std::string::npos && a[0] != '-') {
            std::string k = a.substr(0, a.find('=')), v = a.substr(a.find('=') + 1);
            if (k == "target") target_name = v;
            else params.push_back({k, v});
        } else {
            user_error << "Unknown option '" << a << "'; run with --help for the options";
        }
    }
    user_assert(!generator.empty()) << "No generator given (-g NAME); run with --help to list them";
    user_assert(!dir.empty()) << "No output directory given (-o DIR)";
    if (function.empty()) function = generator;
    Target target = Target::parse(target_name);
    auto g = GeneratorRegistry::create(generator);
    for (auto &[k, v] : params) g->set_param(k, v);

    AOTEmit emit;
    emit.static_library = emit.header = false;
    bool report = false;
    for (auto &e : split(emit_list, ',')) {
        if (e == "static_library") emit.static_library = true;
        else if (e == "h") emit.header = true;
        else if (e == "o") emit.object = true;
        else if (e == "stmt") emit.stmt = true;
        else if (e == "ll") emit.llvm_ir = true;
        else if (e == "s") emit.assembly = true;
        else if (e == "report") report = true;
        else user_error << "Unknown output kind '" << e << "' in -e; use static_library, h, o, stmt, ll, s, report";
    }
    auto start = std::chrono::steady_clock::now();
    Func output = g->build();
    std::vector<AOTArgument> inputs;
    for (auto *io : g->ios()) {
        if (io->io_is_output) continue;
        inputs.push_back(AOTArgument{io->io_name, io->io_is_buffer, io->io_type, io->io_dimensions});
    }
    compile_to_files(output, inputs, function, target, dir, emit);
    if (report) {
        user_assert(!sizes_text.empty()) << "-e report needs the output size: -r WxH[x...]";
        std::vector<int> sizes;
        for (auto &s : split(sizes_text, 'x')) sizes.push_back(std::atoi(s.c_str()));
        RedundancyReport r = redundancy_report(output, sizes);
        std::FILE *f = std::fopen((dir + "/" + function + ".report.txt").c_str(), "w");
        user_assert(f) << "Cannot write the report in " << dir;
        std::fputs(r.to_string().c_str(), f);
        std::fclose(f);
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "compiled generator '%s' as %s for %s in %.0f ms\n", generator.c_str(), function.c_str(),
                 target.name.c_str(), ms);
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}

// The generator driver: the main() of a generator executable. It compiles one registered
// generator ahead of time, with its GeneratorParams set from the command line.
#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iomanip>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/CNames.h"
#include "dsl/Halo.h"
#include "sweep/Sweep.h"

using namespace halo;

namespace {

const char *usage =
    "usage: %s -g GENERATOR -o DIR [-f FUNCTION] [-e EMIT,...] [-r SIZES] [target=TARGET] [param=value ...]\n"
    "       %s --sweep -g GENERATOR -r SIZES [param=v1,v2,... ...]  (a tile-size sweep; --sweep --help)\n"
    "       %s --help\n"
    "\n"
    "  -g GENERATOR   which registered generator to compile\n"
    "  -o DIR         where to write the outputs\n"
    "  -f FUNCTION    name of the generated C function and files (default: the generator's name);\n"
    "                 a C identifier, not a keyword, main, or starting with halo_\n"
    "  -e EMIT        comma-separated: static_library, h, o, stmt, ll, s, report, schedule\n"
    "                 (schedule: what auto_schedule=true chose, as C++, in FUNCTION.schedule.h)\n"
    "                 (default: static_library,h)\n"
    "  -r SIZES       output size for the redundancy report, e.g. 256x256x32 (each extent at\n"
    "                 most 2^30, at most 2^31 - 1 points)\n"
    "  target=TARGET  host, x86-64-sse41, x86-64-avx2 or x86-64-avx512 (default: host)\n"
    "  param=value    sets a GeneratorParam (--help lists them with their accepted ranges)\n";

struct Options {
    std::string generator, dir, function, emit_list = "static_library,h", sizes_text, target_name = "host";
    bool help = false, sizes_given = false;
    std::vector<std::pair<std::string, std::string>> params;
};

Options parse_command_line(int argc, char **argv) {
    Options o;
    std::map<std::string, std::string> seen;  // option -> its value, to catch repeats
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            user_assert(i + 1 < argc) << "Option " << a << " needs a value";
            std::string v = argv[++i];
            auto [it, fresh] = seen.emplace(a, v);
            user_assert(fresh) << "Option " << a << " is given twice ('" << it->second << "' and '" << v
                               << "'); give it once";
            return v;
        };
        if (a == "--help" || a == "-h") {
            o.help = true;
            return o;
        } else if (a == "-g") {
            o.generator = value();
        } else if (a == "-o") {
            o.dir = value();
        } else if (a == "-f") {
            o.function = value();
            user_assert(!o.function.empty()) << "-f needs a function name; it was given ''";
        } else if (a == "-e") {
            o.emit_list = value();
        } else if (a == "-r") {
            o.sizes_text = value();
            o.sizes_given = true;
        } else if (a.find('=') != std::string::npos && a[0] != '-') {
            std::string k = a.substr(0, a.find('=')), v = a.substr(a.find('=') + 1);
            if (k == "target") o.target_name = v;
            else o.params.push_back({k, v});
        } else {
            user_error << "Unknown option '" << a << "'; run with --help for the options";
        }
    }
    return o;
}

AOTEmit parse_emit(const std::string &list, bool &report, bool &schedule) {
    const char *kinds = "static_library, h, o, stmt, ll, s, report, schedule";
    AOTEmit emit;
    emit.static_library = emit.header = false;
    report = schedule = false;
    user_assert(!list.empty()) << "-e '' names no output kind; use a comma-separated list of " << kinds;
    for (auto &e : internal::split_list(list, ',')) {
        if (e == "static_library") emit.static_library = true;
        else if (e == "h") emit.header = true;
        else if (e == "o") emit.object = true;
        else if (e == "stmt") emit.stmt = true;
        else if (e == "ll") emit.llvm_ir = true;
        else if (e == "s") emit.assembly = true;
        else if (e == "report") report = true;
        else if (e == "schedule") schedule = true;
        else if (e.empty()) user_error << "-e '" << list << "' has an empty output kind; use a comma-separated list of " << kinds;
        else user_error << "Unknown output kind '" << e << "' in -e; use " << kinds;
    }
    return emit;
}

void write_text_file(const std::string &path, const std::string &text, const char *what) {
    std::FILE *f = std::fopen(path.c_str(), "w");
    user_assert(f) << "Cannot write the " << what << " '" << path << "': " << std::strerror(errno);
    bool ok = std::fputs(text.c_str(), f) >= 0;
    ok = std::fclose(f) == 0 && ok;
    user_assert(ok) << "Writing the " << what << " '" << path << "' failed: " << std::strerror(errno);
}

void check_output_dir(const std::string &dir) {
    struct stat st {};
    user_assert(::stat(dir.c_str(), &st) == 0) << "Output directory '" << dir << "' (-o) does not exist";
    user_assert(S_ISDIR(st.st_mode)) << "Output directory '" << dir << "' (-o) is not a directory";
}

// An input's or output's types and shape: "{uint8, float32} buffer, 2-D" for a Tuple-valued
// output; a scalar input's default and range: "float32 (default 1.5, in [0, 4])".
std::string describe_io(const internal::GeneratorIOBase &io) {
    std::ostringstream s;
    std::vector<Type> types = io.types();
    if (types.size() == 1) {
        s << types[0];
    } else {
        s << "{";
        for (size_t i = 0; i < types.size(); i++) s << (i ? ", " : "") << types[i];
        s << "}";
    }
    if (io.io_is_buffer) s << " buffer, " << io.io_dimensions << "-D";
    std::shared_ptr<ParameterContents> p = io.io_is_output ? nullptr : io.input_parameter();
    if (!p || p->is_buffer) return s.str();
    std::vector<std::string> notes;
    if (p->scalar_set) {
        std::ostringstream v;
        const Type t = p->type;
        if (t.is_float()) v << std::setprecision(17) << p->scalar_as_double();
        else if (t.is_bool()) v << (p->get_scalar<bool>() ? "true" : "false");
        else if (t.is_uint() && t.bits() == 64) v << p->get_scalar<uint64_t>();
        else v << p->scalar_as_int();
        notes.push_back("default " + v.str());
    }
    auto bound = [](const Expr &b) {
        std::ostringstream t;
        if (!b.defined()) t << "-";
        else if (const FloatImm *f = b.as<FloatImm>()) t << f->value;  // 4, not the printer's 4f
        else t << b;
        return t.str();
    };
    if (p->min_value.defined() || p->max_value.defined()) {
        notes.push_back("in [" + bound(p->min_value) + ", " + bound(p->max_value) + "]");
    }
    for (size_t i = 0; i < notes.size(); i++) s << (i ? ", " : " (") << notes[i] << (i + 1 == notes.size() ? ")" : "");
    return s.str();
}

void print_help(const char *argv0) {
    std::printf(usage, argv0, argv0, argv0);
    std::printf("\ngenerators:\n");
    for (auto &name : GeneratorRegistry::names()) {
        auto g = GeneratorRegistry::create(name);
        std::printf("  %s\n", name.c_str());
        for (auto *io : g->ios()) {
            std::printf("    %-8s %-20s %s\n", io->io_is_output ? "output" : "input", io->io_name.c_str(),
                        describe_io(*io).c_str());
        }
        for (auto *p : g->params()) {
            std::printf("    %-8s %-20s %s (default %s)\n", "param", p->name.c_str(), p->type_name().c_str(),
                        p->value_string().c_str());
        }
    }
}

int run(int argc, char **argv) {
    // Everything on the command line is checked before anything is built or written.
    Options o = parse_command_line(argc, argv);
    if (o.help) {
        print_help(argv[0]);
        return 0;
    }
    user_assert(!o.generator.empty()) << "No generator given (-g NAME); run with --help to list them";
    user_assert(!o.dir.empty()) << "No output directory given (-o DIR)";
    check_output_dir(o.dir);
    bool report = false, schedule_file = false;
    AOTEmit emit = parse_emit(o.emit_list, report, schedule_file);
    std::vector<int> sizes;
    if (report) {
        user_assert(o.sizes_given) << "-e report needs the output size: -r WxH[x...]";
        sizes = internal::parse_output_sizes(o.sizes_text, "-r");
    } else {
        user_assert(!o.sizes_given) << "-r sets the size of the redundancy report, which is not asked for; "
                                    << "add report to -e or drop -r";
    }
    bool default_name = o.function.empty();
    std::string function = default_name ? o.generator : o.function;
    std::string why = why_not_function_name(function);
    user_assert(why.empty()) << "Function name '" << function << "'" << (default_name ? " (the generator's name)" : "")
                             << " cannot be used: " << why << "; choose another with -f NAME";
    Target target = Target::parse(o.target_name);
    auto g = GeneratorRegistry::create(o.generator);
    g->set_target(target);
    for (auto &[k, v] : o.params) g->set_param(k, v);
    if (schedule_file) {
        bool automatic = false;
        for (auto *p : g->params()) automatic |= p->name == "auto_schedule" && p->value_string() == "true";
        user_assert(automatic) << "-e schedule writes the schedule auto_schedule chooses; add auto_schedule=true";
    }
    if (report) {
        for (auto *io : g->ios()) {
            user_assert(!io->io_is_output || io->io_dimensions == int(sizes.size()))
                << "-r '" << o.sizes_text << "' gives " << sizes.size() << " extents, but the output '" << io->io_name
                << "' of generator '" << o.generator << "' has " << io->io_dimensions << " dimensions";
        }
    }

    auto start = std::chrono::steady_clock::now();
    std::vector<Func> outputs = g->build_outputs();
    std::vector<AOTArgument> inputs;
    for (auto *io : g->ios()) {
        if (io->io_is_output) continue;
        inputs.push_back(AOTArgument{io->io_name, io->io_is_buffer ? AOTArgument::InputBuffer : AOTArgument::InputScalar, io->io_type, io->io_dimensions});
    }
    compile_to_files(outputs, inputs, function, target, o.dir, emit);
    if (report) {
        // One report per output (each as the output of its own pipeline).
        std::string text;
        for (const Func &output : outputs) text += redundancy_report(output, sizes).to_string();
        write_text_file(o.dir + "/" + function + ".report.txt", text, "report");
    }
    if (schedule_file) {
        write_text_file(o.dir + "/" + function + ".schedule.h",
                        "// The schedule auto_schedule chose for generator '" + o.generator +
                            "' (paste into schedule() and edit)\n" + g->auto_schedule_source(),
                        "schedule");
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "compiled generator '%s' as %s for %s in %.0f ms\n", o.generator.c_str(), function.c_str(),
                 target.to_string().c_str(), ms);
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    // GENERATOR_EXE --sweep ...: the tile-size sweep (what halo-sweep GENERATOR_EXE ... runs).
    if (argc >= 2 && !std::strcmp(argv[1], "--sweep")) {
        std::string program = std::string(argv[0]) + " --sweep";
        std::vector<char *> args{program.data()};
        for (int i = 2; i < argc; i++) args.push_back(argv[i]);
        return halo::sweep::run_sweep_command_line(int(args.size()), args.data());
    }
    try {
        return run(argc, argv);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}

#include "CNames.h"

#include <cctype>
#include <set>

#include "dsl/Error.h"

namespace halo {

namespace {

bool is_keyword(const std::string &name) {
    // C17 and C23 keywords, then C++20's (the generated header is included from both).
    static const std::set<std::string> keywords = {
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
        "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
        "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
        "volatile", "while", "alignas", "alignof", "bool", "constexpr", "false", "nullptr", "static_assert",
        "thread_local", "true", "typeof", "typeof_unqual", "and", "and_eq", "asm", "bitand", "bitor", "catch",
        "char8_t", "char16_t", "char32_t", "class", "co_await", "co_return", "co_yield", "compl", "concept",
        "const_cast", "consteval", "constinit", "decltype", "delete", "dynamic_cast", "explicit", "export",
        "friend", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "operator", "or", "or_eq",
        "private", "protected", "public", "reinterpret_cast", "requires", "static_cast", "template", "this",
        "throw", "try", "typeid", "typename", "using", "virtual", "wchar_t", "xor", "xor_eq"};
    return keywords.count(name) > 0;
}

bool is_identifier(const std::string &name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
    for (char c : name) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    }
    return true;
}

}  // namespace

std::string why_not_function_name(const std::string &name) {
    if (name.empty()) return "it is empty";
    if (!is_identifier(name)) {
        return "it is not a C identifier (use letters, digits and '_', not starting with a digit)";
    }
    if (is_keyword(name)) return "it is a C or C++ keyword";
    if (name == "main") return "it would clash with the program's main()";
    if (name.compare(0, 2, "__") == 0 || (name[0] == '_' && name.size() > 1 && std::isupper(static_cast<unsigned char>(name[1])))) {
        return "names starting with '__' or '_' and a capital letter are reserved for the C implementation";
    }
    if (name.compare(0, 5, "halo_") == 0) return "names starting with 'halo_' are reserved for the Halo runtime";
    return "";
}

std::vector<std::string> c_parameter_names(const std::vector<std::string> &names) {
    std::vector<std::string> out;
    std::set<std::string> taken;
    for (const std::string &name : names) {
        std::string c = name.empty() ? "arg" : name;
        for (char &ch : c) {
            if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_')) ch = '_';
        }
        const bool reserved = c.compare(0, 2, "__") == 0 ||
                              (c[0] == '_' && c.size() > 1 && std::isupper(static_cast<unsigned char>(c[1])));
        if (std::isdigit(static_cast<unsigned char>(c[0])) || reserved) c = "p" + c;
        if (is_keyword(c) || c == "context") c += "_";
        std::string unique = c;
        for (int k = 2; taken.count(unique); k++) unique = c + "_" + std::to_string(k);
        taken.insert(unique);
        out.push_back(unique);
    }
    return out;
}

void check_function_name(const std::string &name) {
    std::string why = why_not_function_name(name);
    user_assert(why.empty()) << "Function name '" << name << "' cannot be used: " << why << "; choose another name";
}

}  // namespace halo

#include "LetStmts.h"

namespace halo {

Stmt peel_leading_lets(const Stmt &s, LetList &lets, bool through_realizations) {
    if (auto l = s.as<LetStmt>()) {
        lets.push_back({l->name, l->value});
        return peel_leading_lets(l->body, lets, through_realizations);
    }
    if (!through_realizations) return s;
    if (auto r = s.as<Realize>()) {
        return Realize::make(r->name, r->types, r->bounds, peel_leading_lets(r->body, lets, true));
    }
    if (auto pc = s.as<ProducerConsumer>(); pc && !pc->is_producer) {
        return ProducerConsumer::make(pc->name, false, peel_leading_lets(pc->body, lets, true));
    }
    return s;
}

Stmt wrap_lets(Stmt s, const LetList &lets) {
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) s = LetStmt::make(it->first, it->second, s);
    return s;
}

std::map<std::string, Expr> let_values(const LetList &lets) { return {lets.begin(), lets.end()}; }

}  // namespace halo

#include "tuner/expr.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

namespace csrgat::tuner {

struct Expr::Node {
  enum class Kind { number, var, unary, binary, in, call } kind = Kind::number;
  enum class Op {
    none,
    add,
    sub,
    mul,
    div,
    mod,
    lt,
    le,
    gt,
    ge,
    eq,
    ne,
    land,
    lor,
    lnot,
    neg,
    pos,
    min,
    max
  };
  std::string op;  // operator text, or the variable / function name
  Op code = Op::none;
  double value = 0;
  int slot = -1;   // variable position after bind()
  int column = 0;  // 1-based, of the token that names the node
  std::vector<std::shared_ptr<const Node>> kids;
};

namespace {

using NodePtr = std::shared_ptr<const Expr::Node>;
using Kind = Expr::Node::Kind;

struct Token {
  enum class Type { number, ident, op, end } type = Type::end;
  std::string text;
  double value = 0;
  int column = 0;
};

std::string describe(const Token& t) {
  switch (t.type) {
    case Token::Type::end:
      return "end of input";
    case Token::Type::number:
      return "number " + t.text;
    case Token::Type::ident:
      return "identifier '" + t.text + "'";
    case Token::Type::op:
      return "'" + t.text + "'";
  }
  return "?";
}

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) { tokenize(); }

  NodePtr parse_all() {
    NodePtr n = parse_or();
    if (peek().type != Token::Type::end) fail(peek(), "an operator or end of input");
    return n;
  }

 private:
  // Deep nesting would otherwise overflow the stack on hostile input; so would a long chain of
  // one operator (a + a + ... builds, binds and frees a tree as deep as the chain), which the
  // token count bounds.
  static constexpr int kMaxDepth = 200;
  static constexpr size_t kMaxTokens = 4096;

  [[noreturn]] void fail(const Token& at, const std::string& expected) const {
    throw ExprError("'" + text_ + "' column " + std::to_string(at.column) + ": expected " +
                        expected + ", found " + describe(at),
                    at.column);
  }
  [[noreturn]] void fail_at(int column, const std::string& msg) const {
    throw ExprError("'" + text_ + "' column " + std::to_string(column) + ": " + msg, column);
  }

  void tokenize() {
    size_t i = 0;
    const size_t n = text_.size();
    while (i < n) {
      const char c = text_[i];
      const int col = static_cast<int>(i) + 1;
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      Token t;
      t.column = col;
      if (std::isdigit(static_cast<unsigned char>(c)) ||
          (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(text_[i + 1])))) {
        size_t j = i;
        while (j < n && std::isdigit(static_cast<unsigned char>(text_[j]))) ++j;
        if (j < n && text_[j] == '.') {
          ++j;
          while (j < n && std::isdigit(static_cast<unsigned char>(text_[j]))) ++j;
        }
        if (j < n && (text_[j] == 'e' || text_[j] == 'E')) {
          size_t k = j + 1;
          if (k < n && (text_[k] == '+' || text_[k] == '-')) ++k;
          if (k >= n || !std::isdigit(static_cast<unsigned char>(text_[k])))
            fail_at(static_cast<int>(k) + 1,
                    "expected digits of the exponent in '" + text_.substr(i, k - i) + "'");
          while (k < n && std::isdigit(static_cast<unsigned char>(text_[k]))) ++k;
          j = k;
        }
        // "4x" is a typo, not 4 followed by x.
        if (j < n && (std::isalpha(static_cast<unsigned char>(text_[j])) || text_[j] == '_'))
          fail_at(static_cast<int>(j) + 1, "unexpected '" + std::string(1, text_[j]) +
                                               "' after the number " + text_.substr(i, j - i));
        t.type = Token::Type::number;
        t.text = text_.substr(i, j - i);
        t.value = std::strtod(t.text.c_str(), nullptr);
        i = j;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        size_t j = i;
        while (j < n && (std::isalnum(static_cast<unsigned char>(text_[j])) || text_[j] == '_'))
          ++j;
        t.type = Token::Type::ident;
        t.text = text_.substr(i, j - i);
        i = j;
      } else {
        static const char* two[] = {"<=", ">=", "==", "!=", "&&", "||"};
        t.type = Token::Type::op;
        for (const char* op : two) {
          if (text_.compare(i, 2, op) == 0) t.text = op;
        }
        if (t.text.empty()) {
          if (std::string("+-*/%<>!()[],").find(c) == std::string::npos) {
            std::string hint;
            if (c == '&') hint = " (did you mean '&&'?)";
            if (c == '|') hint = " (did you mean '||'?)";
            if (c == '=') hint = " (did you mean '=='?)";
            fail_at(col, "unexpected character '" + std::string(1, c) + "'" + hint);
          }
          t.text = std::string(1, c);
        }
        i += t.text.size();
      }
      tokens_.push_back(t);
      if (tokens_.size() > kMaxTokens)
        throw ExprError("'" + text_.substr(0, 60) + "...' column " + std::to_string(t.column) +
                            ": expression too long (more than " + std::to_string(kMaxTokens) +
                            " tokens)",
                        t.column);
    }
    Token end;
    end.column = static_cast<int>(n) + 1;
    tokens_.push_back(end);
  }

  const Token& peek() const { return tokens_[pos_]; }
  bool is_op(const char* op) const { return peek().type == Token::Type::op && peek().text == op; }
  bool is_ident(const char* name) const {
    return peek().type == Token::Type::ident && peek().text == name;
  }
  const Token& take() { return tokens_[pos_++]; }
  void expect(const char* op) {
    if (!is_op(op)) fail(peek(), std::string("'") + op + "'");
    ++pos_;
  }

  static NodePtr make(Kind k, const Token& t, std::vector<NodePtr> kids) {
    using Op = Expr::Node::Op;
    static const std::map<std::string, Op> binary{
        {"+", Op::add}, {"-", Op::sub},   {"*", Op::mul},  {"/", Op::div},   {"%", Op::mod},
        {"<", Op::lt},  {"<=", Op::le},   {">", Op::gt},   {">=", Op::ge},   {"==", Op::eq},
        {"!=", Op::ne}, {"&&", Op::land}, {"||", Op::lor}, {"min", Op::min}, {"max", Op::max}};
    auto n = std::make_shared<Expr::Node>();
    n->kind = k;
    n->op = t.text;
    if (k == Kind::unary) n->code = t.text == "!" ? Op::lnot : t.text == "-" ? Op::neg : Op::pos;
    if (k == Kind::binary || k == Kind::call) n->code = binary.at(t.text);
    n->value = t.value;
    n->column = t.column;
    n->kids = std::move(kids);
    return n;
  }

  template <class Next>
  NodePtr left_assoc(std::initializer_list<const char*> ops, Next next) {
    NodePtr lhs = (this->*next)();
    for (;;) {
      const char* hit = nullptr;
      for (const char* op : ops)
        if (is_op(op)) hit = op;
      if (!hit) return lhs;
      const Token t = take();
      NodePtr rhs = (this->*next)();
      lhs = make(Kind::binary, t, {lhs, rhs});
    }
  }

  NodePtr parse_or() {
    if (++depth_ > kMaxDepth) fail_at(peek().column, "expression nested too deeply");
    NodePtr n = left_assoc({"||"}, &Parser::parse_and);
    --depth_;
    return n;
  }
  NodePtr parse_and() { return left_assoc({"&&"}, &Parser::parse_eq); }
  NodePtr parse_eq() { return left_assoc({"==", "!="}, &Parser::parse_rel); }
  NodePtr parse_rel() {
    NodePtr lhs = parse_add();
    for (;;) {
      if (is_ident("in")) {
        const Token t = take();
        expect("[");
        std::vector<NodePtr> kids{lhs};
        kids.push_back(parse_or());
        while (is_op(",")) {
          take();
          kids.push_back(parse_or());
        }
        if (!is_op("]")) fail(peek(), "',' or ']'");
        take();
        lhs = make(Kind::in, t, std::move(kids));
        continue;
      }
      const char* hit = nullptr;
      for (const char* op : {"<", "<=", ">", ">="})
        if (is_op(op)) hit = op;
      if (!hit) return lhs;
      const Token t = take();
      lhs = make(Kind::binary, t, {lhs, parse_add()});
    }
  }
  NodePtr parse_add() { return left_assoc({"+", "-"}, &Parser::parse_mul); }
  NodePtr parse_mul() { return left_assoc({"*", "/", "%"}, &Parser::parse_unary); }
  NodePtr parse_unary() {
    if (is_op("!") || is_op("-") || is_op("+")) {
      if (++depth_ > kMaxDepth) fail_at(peek().column, "expression nested too deeply");
      const Token t = take();
      NodePtr n = make(Kind::unary, t, {parse_unary()});
      --depth_;
      return n;
    }
    return parse_primary();
  }
  NodePtr parse_primary() {
    const Token& t = peek();
    if (t.type == Token::Type::number) return make(Kind::number, take(), {});
    if (t.type == Token::Type::ident) {
      if (t.text == "in") fail(t, "a number, an identifier, '(', '!' or '-'");
      const Token name = take();
      if (!is_op("(")) return make(Kind::var, name, {});
      if (name.text != "min" && name.text != "max")
        fail_at(name.column, "unknown function '" + name.text + "' (known: min, max)");
      take();
      std::vector<NodePtr> args{parse_or()};
      while (is_op(",")) {
        take();
        args.push_back(parse_or());
      }
      if (!is_op(")")) fail(peek(), "',' or ')'");
      take();
      return make(Kind::call, name, std::move(args));
    }
    if (t.type == Token::Type::op && t.text == "(") {
      take();
      NodePtr inner = parse_or();
      if (!is_op(")")) fail(peek(), "')'");
      take();
      return inner;
    }
    fail(t, "a number, an identifier, '(', '!' or '-'");
  }

  const std::string& text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
};

std::string known_list(const std::map<std::string, double>& vars) {
  std::string s;
  for (const auto& [k, v] : vars) s += (s.empty() ? "" : ", ") + k;
  return s.empty() ? "none" : s;
}

ExprError error_at(const Expr::Node& n, const std::string& text, const std::string& msg) {
  return ExprError("'" + text + "' column " + std::to_string(n.column) + ": " + msg, n.column);
}

// One evaluator for both lookups: by name (a map) and by slot (a bound expression).
template <class Lookup>
double eval_node(const Expr::Node& n, const Lookup& lookup, const std::string& text) {
  using Op = Expr::Node::Op;
  switch (n.kind) {
    case Kind::number:
      return n.value;
    case Kind::var:
      return lookup(n);
    case Kind::unary: {
      const double v = eval_node(*n.kids[0], lookup, text);
      if (n.code == Op::lnot) return v == 0.0 ? 1.0 : 0.0;
      return n.code == Op::neg ? -v : v;
    }
    case Kind::in: {
      const double v = eval_node(*n.kids[0], lookup, text);
      for (size_t i = 1; i < n.kids.size(); ++i)
        if (eval_node(*n.kids[i], lookup, text) == v) return 1.0;
      return 0.0;
    }
    case Kind::call: {
      double r = eval_node(*n.kids[0], lookup, text);
      for (size_t i = 1; i < n.kids.size(); ++i) {
        const double v = eval_node(*n.kids[i], lookup, text);
        r = n.code == Op::min ? std::min(r, v) : std::max(r, v);
      }
      return r;
    }
    case Kind::binary:
      break;
  }
  const double a = eval_node(*n.kids[0], lookup, text);
  // Short-circuit so that "split == 0 || tpr % split == 0" does not divide by zero.
  if (n.code == Op::land) return a != 0.0 && eval_node(*n.kids[1], lookup, text) != 0.0 ? 1.0 : 0.0;
  if (n.code == Op::lor) return a != 0.0 || eval_node(*n.kids[1], lookup, text) != 0.0 ? 1.0 : 0.0;
  const double b = eval_node(*n.kids[1], lookup, text);
  switch (n.code) {
    case Op::add:
      return a + b;
    case Op::sub:
      return a - b;
    case Op::mul:
      return a * b;
    case Op::div:
    case Op::mod:
      if (b == 0.0)
        throw error_at(n, text, n.code == Op::div ? "division by zero" : "modulo by zero");
      return n.code == Op::div ? a / b : std::fmod(a, b);
    case Op::lt:
      return a < b ? 1.0 : 0.0;
    case Op::le:
      return a <= b ? 1.0 : 0.0;
    case Op::gt:
      return a > b ? 1.0 : 0.0;
    case Op::ge:
      return a >= b ? 1.0 : 0.0;
    case Op::eq:
      return a == b ? 1.0 : 0.0;
    case Op::ne:
      return a != b ? 1.0 : 0.0;
    default:
      throw error_at(n, text, "internal: unknown operator '" + n.op + "'");
  }
}

NodePtr bind_node(const Expr::Node& n, const std::vector<std::string>& names,
                  const std::string& text) {
  auto out = std::make_shared<Expr::Node>(n);
  if (n.kind == Kind::var) {
    const auto it = std::find(names.begin(), names.end(), n.op);
    if (it == names.end()) {
      std::string known;
      for (const auto& k : names) known += (known.empty() ? "" : ", ") + k;
      throw error_at(n, text, "unknown identifier '" + n.op + "' (known: " + known + ")");
    }
    out->slot = static_cast<int>(it - names.begin());
  }
  for (auto& k : out->kids) k = bind_node(*k, names, text);
  return out;
}

void collect(const Expr::Node& n, std::vector<std::pair<std::string, int>>& out,
             std::set<std::string>& seen) {
  if (n.kind == Kind::var && seen.insert(n.op).second) out.emplace_back(n.op, n.column);
  for (const auto& k : n.kids) collect(*k, out, seen);
}

}  // namespace

Expr::Expr() : text_("1") {
  auto n = std::make_shared<Node>();
  n->value = 1;
  n->column = 1;
  root_ = n;
}

Expr Expr::parse(const std::string& text) {
  Expr e;
  e.text_ = text;
  Parser p(e.text_);
  e.root_ = p.parse_all();
  return e;
}

double Expr::eval(const std::map<std::string, double>& vars) const {
  return eval_node(
      *root_,
      [&](const Node& n) {
        const auto it = vars.find(n.op);
        if (it == vars.end())
          throw error_at(n, text_,
                         "unknown identifier '" + n.op + "' (known: " + known_list(vars) + ")");
        return it->second;
      },
      text_);
}

Expr Expr::bind(const std::vector<std::string>& names) const {
  Expr e = *this;
  e.root_ = bind_node(*root_, names, text_);
  return e;
}

double Expr::eval(const double* values) const {
  return eval_node(
      *root_,
      [&](const Node& n) {
        if (n.slot < 0) throw error_at(n, text_, "variable '" + n.op + "' is not bound");
        return values[n.slot];
      },
      text_);
}

std::vector<std::pair<std::string, int>> Expr::identifier_uses() const {
  std::vector<std::pair<std::string, int>> out;
  std::set<std::string> seen;
  // Operands sit left to right in the tree, so a pre-order walk meets them in text order.
  collect(*root_, out, seen);
  return out;
}

std::vector<std::string> Expr::identifiers() const {
  std::vector<std::string> out;
  for (const auto& [name, col] : identifier_uses()) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace csrgat::tuner

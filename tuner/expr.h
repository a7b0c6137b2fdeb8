// A small expression language for constraints between kernel parameters, e.g.
//   fl <= tpr
//   fl * vec * tiles <= 2 * feat && (split == 0 || split >= 16 * tpr)
//   vec in [1, 2, 4]
//
// Grammar (loosest first; all binary operators associate left):
//   or      := and ('||' and)*
//   and     := eq ('&&' eq)*
//   eq      := rel (('==' | '!=') rel)*
//   rel     := add (('<' | '<=' | '>' | '>=') add | 'in' '[' or (',' or)* ']')*
//   add     := mul (('+' | '-') mul)*
//   mul     := unary (('*' | '/' | '%') unary)*
//   unary   := ('!' | '-' | '+') unary | primary
//   primary := number | identifier | identifier '(' or (',' or)* ')' | '(' or ')'
// Numbers are integers or decimals (1, 0.5, 1e3). Every value is a double: '/' is true
// division (feat / 2 is 1.5 for feat = 3), '%' is fmod, comparisons and logic give 1 or 0, and
// anything non-zero is true. Functions: min(a, b, ...), max(a, b, ...). Division or modulo by
// zero is an evaluation error rather than inf/NaN, so a typo cannot silently keep everything.
//
// Parsed once into a tree; evaluation only reads variables from the map: no code is run.
#pragma once

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace csrgat::tuner {

// A parse or evaluation error. column is 1-based into the expression text (0 when unknown).
class ExprError : public std::runtime_error {
 public:
  ExprError(const std::string& what, int column) : std::runtime_error(what), column_(column) {}
  int column() const { return column_; }

 private:
  int column_;
};

class Expr {
 public:
  struct Node;

  Expr();  // the constant 1 (always true)
  // Throws ExprError: "column 5: expected a number, identifier, '(', '!' or '-', found end of
  // input".
  static Expr parse(const std::string& text);

  // Throws ExprError naming an identifier missing from vars, or a division by zero.
  double eval(const std::map<std::string, double>& vars) const;
  bool holds(const std::map<std::string, double>& vars) const { return eval(vars) != 0.0; }

  // For hot loops (enumerating thousands of combinations): a copy whose variables are resolved
  // once to their positions in `names`, then evaluated with values[i] for names[i]. Throws
  // ExprError naming a variable missing from names.
  Expr bind(const std::vector<std::string>& names) const;
  // Only on a bound Expr (ExprError otherwise).
  double eval(const double* values) const;

  const std::string& text() const { return text_; }
  // The variables the expression reads, sorted, each once (function names excluded).
  std::vector<std::string> identifiers() const;
  // Each variable read with the 1-based column of its first use, in order of appearance.
  std::vector<std::pair<std::string, int>> identifier_uses() const;

 private:
  std::shared_ptr<const Node> root_;
  std::string text_;
};

}  // namespace csrgat::tuner

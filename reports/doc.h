// A small document model written out twice: as GitHub Markdown and as one self-contained
// HTML page (inline CSS, charts inlined), so both always say the same thing. Text may use
// `code` and **bold**; everything else is escaped.
#pragma once

#include <string>
#include <vector>

namespace csrgat::reports {

class Doc {
 public:
  explicit Doc(std::string title) : title_(std::move(title)) {}
  void heading(int level, const std::string& text);  // level 2..4 (1 is the title)
  void para(const std::string& text);
  void bullets(const std::vector<std::string>& items);
  // align: one char per column, 'l' or 'r' (missing columns: 'l').
  void table(const std::vector<std::string>& header,
             const std::vector<std::vector<std::string>>& rows, const std::string& align = "");
  // A chart: Markdown gets an image link, HTML the given inline markup (an <svg> or <img>).
  void chart(const std::string& md_link, const std::string& html_markup);
  // Collapsible in HTML (<details>), a plain paragraph in Markdown.
  void details(const std::string& summary, const std::string& preformatted);

  std::string markdown() const;
  std::string html() const;

 private:
  struct Block {
    enum Kind { heading, para, bullets, table, chart, details } kind;
    int level = 0;
    std::string text, extra, align;
    std::vector<std::string> items;
    std::vector<std::vector<std::string>> rows;
  };
  std::string title_;
  std::vector<Block> blocks_;
};

std::string html_escape(const std::string& s);
// html_escape, then `code` and **bold** to their tags.
std::string html_inline(const std::string& s);
std::string md_cell(const std::string& s);  // escapes '|' and newlines for a table cell

}  // namespace csrgat::reports

#include "reports/doc.h"

#include <sstream>

namespace csrgat::reports {

void Doc::heading(int level, const std::string& text) {
  blocks_.push_back({Block::heading, level, text, "", "", {}, {}});
}
void Doc::para(const std::string& text) {
  blocks_.push_back({Block::para, 0, text, "", "", {}, {}});
}
void Doc::bullets(const std::vector<std::string>& items) {
  blocks_.push_back({Block::bullets, 0, "", "", "", items, {}});
}
void Doc::table(const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows, const std::string& align) {
  Block b{Block::table, 0, "", "", align, header, rows};
  blocks_.push_back(std::move(b));
}
void Doc::chart(const std::string& md_link, const std::string& html_markup) {
  blocks_.push_back({Block::chart, 0, md_link, html_markup, "", {}, {}});
}
void Doc::details(const std::string& summary, const std::string& preformatted) {
  blocks_.push_back({Block::details, 0, summary, preformatted, "", {}, {}});
}

std::string html_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string html_inline(const std::string& s) {
  const std::string e = html_escape(s);
  std::string out;
  bool code = false, bold = false;
  for (size_t i = 0; i < e.size(); ++i) {
    if (e[i] == '`') {
      out += code ? "</code>" : "<code>";
      code = !code;
    } else if (!code && e.compare(i, 2, "**") == 0) {
      out += bold ? "</strong>" : "<strong>";
      bold = !bold;
      ++i;
    } else {
      out += e[i];
    }
  }
  if (code) out += "</code>";
  if (bold) out += "</strong>";
  return out;
}

std::string md_cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out;
}

std::string Doc::markdown() const {
  std::ostringstream os;
  os << "# " << title_ << "\n\n";
  for (const Block& b : blocks_) {
    switch (b.kind) {
      case Block::heading:
        os << std::string(b.level, '#') << ' ' << b.text << "\n\n";
        break;
      case Block::para:
        os << b.text << "\n\n";
        break;
      case Block::bullets:
        for (const auto& i : b.items) os << "- " << i << "\n";
        os << "\n";
        break;
      case Block::table: {
        os << '|';
        for (const auto& h : b.items) os << ' ' << md_cell(h) << " |";
        os << "\n|";
        for (size_t c = 0; c < b.items.size(); ++c)
          os << (c < b.align.size() && b.align[c] == 'r' ? "---:|" : "---|");
        os << "\n";
        for (const auto& r : b.rows) {
          os << '|';
          for (const auto& cell : r) os << ' ' << md_cell(cell) << " |";
          os << "\n";
        }
        os << "\n";
        break;
      }
      case Block::chart:
        os << b.text << "\n\n";
        break;
      case Block::details:
        os << "**" << b.text << "**\n\n```\n" << b.extra << "\n```\n\n";
        break;
    }
  }
  return os.str();
}

std::string Doc::html() const {
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
     << html_escape(title_)
     << "</title>\n<style>\n"
        "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em "
        "auto;max-width:1200px;"
        "padding:0 1em;color:#1b1f24;line-height:1.45}\n"
        "h1{border-bottom:2px solid #d0d7de;padding-bottom:.3em}h2{border-bottom:1px solid #d0d7de;"
        "padding-bottom:.2em;margin-top:1.8em}\n"
        "table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.88em}\n"
        "th,td{border:1px solid #d0d7de;padding:.25em .55em;vertical-align:top}\n"
        "th{background:#f3f5f7}tr:nth-child(even) td{background:#fafbfc}td.r{text-align:right;"
        "font-variant-numeric:tabular-nums}\n"
        "code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.92em;background:#"
        "f3f5f7;"
        "padding:0 .2em;border-radius:3px}\n"
        ".chart svg,.chart img{max-width:100%;height:auto}\n"
        "pre{background:#f6f8fa;padding:.8em;overflow:auto;font-size:.85em}\n"
        "</style>\n</head>\n<body>\n<h1>"
     << html_escape(title_) << "</h1>\n";
  for (const Block& b : blocks_) {
    switch (b.kind) {
      case Block::heading:
        os << "<h" << b.level << ">" << html_inline(b.text) << "</h" << b.level << ">\n";
        break;
      case Block::para:
        os << "<p>" << html_inline(b.text) << "</p>\n";
        break;
      case Block::bullets:
        os << "<ul>\n";
        for (const auto& i : b.items) os << "<li>" << html_inline(i) << "</li>\n";
        os << "</ul>\n";
        break;
      case Block::table: {
        os << "<table>\n<tr>";
        for (const auto& h : b.items) os << "<th>" << html_inline(h) << "</th>";
        os << "</tr>\n";
        for (const auto& r : b.rows) {
          os << "<tr>";
          for (size_t c = 0; c < r.size(); ++c)
            os << (c < b.align.size() && b.align[c] == 'r' ? "<td class=\"r\">" : "<td>")
               << html_inline(r[c]) << "</td>";
          os << "</tr>\n";
        }
        os << "</table>\n";
        break;
      }
      case Block::chart:
        os << "<div class=\"chart\">\n" << b.extra << "\n</div>\n";
        break;
      case Block::details:
        os << "<details><summary>" << html_inline(b.text) << "</summary>\n<pre>"
           << html_escape(b.extra) << "</pre></details>\n";
        break;
    }
  }
  os << "</body>\n</html>\n";
  return os.str();
}

}  // namespace csrgat::reports

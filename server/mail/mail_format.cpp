#include "mail/mail_format.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include <openssl/evp.h>

namespace emporium::server {
namespace {

bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

bool valid_local_part(std::string_view local) {
  static constexpr std::string_view kSpecials = "!#$%&'*+/=?^_`{|}~-.";
  if (local.empty() || local.size() > 64 || local.front() == '.' || local.back() == '.') return false;
  if (local.find("..") != std::string_view::npos) return false;
  return std::all_of(local.begin(), local.end(),
                     [](char c) { return is_alnum(c) || kSpecials.find(c) != std::string_view::npos; });
}

bool valid_domain(std::string_view domain) {
  if (domain.size() > 253 || domain.find('.') == std::string_view::npos) return false;
  while (true) {
    const auto dot = domain.find('.');
    const auto label = domain.substr(0, dot);
    if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') return false;
    if (!std::all_of(label.begin(), label.end(), [](char c) { return is_alnum(c) || c == '-'; })) return false;
    if (dot == std::string_view::npos) return true;
    domain.remove_prefix(dot + 1);
  }
}

std::string base64(std::string_view bytes) {
  std::vector<unsigned char> out(4 * ((bytes.size() + 2) / 3) + 1);
  const int n = EVP_EncodeBlock(out.data(), reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  return std::string(reinterpret_cast<const char*>(out.data()), static_cast<std::size_t>(n));
}

}  // namespace

bool valid_address(std::string_view address) {
  if (address.size() > 254) return false;
  const auto at = address.find('@');
  if (at == std::string_view::npos || address.find('@', at + 1) != std::string_view::npos) return false;
  return valid_local_part(address.substr(0, at)) && valid_domain(address.substr(at + 1));
}

std::string encoded_header(std::string_view utf8) {
  std::string clean;
  for (char c : utf8) clean += (c == '\r' || c == '\n' || c == '\t') ? ' ' : c;
  const bool plain = std::all_of(clean.begin(), clean.end(), [](char c) { return c >= 0x20 && c < 0x7f; }) &&
                     clean.find("=?") == std::string::npos;
  if (plain) return clean;
  // Encoded words of at most 45 bytes (60 characters of base64), cut between characters: a UTF-8 continuation
  // byte (10xxxxxx) never starts one.
  std::string out;
  std::string_view rest = clean;
  while (!rest.empty()) {
    std::size_t n = std::min<std::size_t>(45, rest.size());
    while (n < rest.size() && n > 0 && (static_cast<unsigned char>(rest[n]) & 0xC0) == 0x80) --n;
    if (!out.empty()) out += ' ';
    out += "=?UTF-8?B?" + base64(rest.substr(0, n)) + "?=";
    rest.remove_prefix(n);
  }
  return out;
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace emporium::server

#pragma once
// The small pieces of a mail's form: which addresses are accepted, a header in UTF-8 (RFC 2047), text in HTML.
#include <string>
#include <string_view>

namespace emporium::server {

// An address this server writes to: local@domain.tld in ASCII, at most 254 characters, the local part of
// RFC 5322's atoms (no quoted strings, no comments) and the domain of host names with at least one dot. Nothing
// here can break a header (no spaces, no CR or LF, no angle brackets).
bool valid_address(std::string_view address);

// A header's value: printable ASCII as it is, anything else as RFC 2047 encoded words (UTF-8, base64), each
// whole characters. CR and LF never pass.
std::string encoded_header(std::string_view utf8);

// Text safe inside HTML elements and attribute values.
std::string html_escape(std::string_view text);

}  // namespace emporium::server

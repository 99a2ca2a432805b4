#pragma once
// Which web pages may open WebSocket connections here. A browser sends the page's Origin with every
// WebSocket upgrade; without a check, any page a visitor opens could use their browser (and their network
// position) to talk to this server. Clients that are not browsers send no Origin and are let in.
#include <string>
#include <string_view>
#include <vector>

namespace emporium::server {

// `origin`: the upgrade's Origin header (empty when absent); `host`: its Host header; `allowed`: extra
// origins ("https://games.example.org", or "*" for any). The server's own origin (http or https, the
// same host and port as Host) is always allowed. Comparison ignores ASCII case.
bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed);

// "a, b,c" -> {"a","b","c"}: the --allowed-origins list (empty entries dropped, no trailing slashes).
std::vector<std::string> parse_origin_list(std::string_view list);

}  // namespace emporium::server

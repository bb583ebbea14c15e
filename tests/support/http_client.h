// A test's HTTP client for `arena serve` on loopback (tests/serve_util.h and tests/season_util.h use it): one
// request on a connection of its own, its response read whole. Compiled once (http_client.cpp), so that the test
// files that talk to the server do not each compile Boost.Beast.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <boost/beast/http/verb.hpp>

namespace kalah::test {

struct HttpResponse {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;
  std::string header(const std::string& name) const {
    const auto found = headers.find(name);
    return found == headers.end() ? "" : found->second;
  }
};

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

// `verb target` to 127.0.0.1:port with `headers` and `body` (a Content-Length is added when there is a body); the
// response's body up to 64 MiB. Throws boost::system::system_error when the connection fails.
HttpResponse http_request(unsigned short port, const std::string& target, boost::beast::http::verb verb,
                          const HttpHeaders& headers = {}, const std::string& body = "");

// A response read whole from the connected socket `fd` (left open), as http_request reads it.
HttpResponse read_http_response(int fd, bool head = false);

// A connected socket's descriptor (loopback), or -1.
int connect_loopback(unsigned short port);

}  // namespace kalah::test

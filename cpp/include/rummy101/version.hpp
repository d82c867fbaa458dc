#pragma once
namespace rummy101 {
const char* version();
}

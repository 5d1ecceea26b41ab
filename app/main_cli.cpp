#include <iostream>

#include "cli.h"

int main(int argc, char** argv) { return ctwin::app::runCli(argc, argv, std::cout, std::cerr); }

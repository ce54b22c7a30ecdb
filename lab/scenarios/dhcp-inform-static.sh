# shellcheck shell=bash # a scenario: lab/lib/dhcp-scenarios.sh says what it sets up and expects
source "$LAB_DIR/lib/dhcp-scenarios.sh"
dhcp_scenario dropped static

# shellcheck shell=bash # a scenario: lab/lib/rogue-scenarios.sh says what it sets up and expects
source "$LAB_DIR/lib/rogue-scenarios.sh"
rogue_scenario own

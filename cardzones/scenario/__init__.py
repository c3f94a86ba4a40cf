"""Scenario files: load and validate YAML, run it, check expectations, and the
pytest plugin that collects every ``*.scenario.yaml`` as one test."""

from cardzones.scenario.runner import Outcome, Scenario, find_scenarios, run_file, run_text

__all__ = ["Outcome", "Scenario", "find_scenarios", "run_file", "run_text"]

"""Custom lighteval tasks (aime24, math_500) - task definitions only."""
TASKS_TABLE = []

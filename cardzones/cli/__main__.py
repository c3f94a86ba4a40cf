"""``python -m cardzones.cli``: the command line."""

from cardzones.cli import main

if __name__ == "__main__":
    main()

"""The one build step pyproject.toml cannot say: the top-level templates/ folder ships
inside the wheel as service/templates (service/resources.py finds it in either place)."""
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithTemplates(build_py):
    def run(self):
        super().run()
        if not self.editable_mode:  # an editable install reads templates/ where it is
            self.copy_tree("templates", str(Path(self.build_lib) / "service" / "templates"))


setup(cmdclass={"build_py": BuildWithTemplates})

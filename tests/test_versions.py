import pytest
from vllm_kb.engine.kb.versions import (
    InvalidSpecifier,
    SpecifierSet,
    Version,
    newest_matching,
)


@pytest.mark.parametrize("spec,yes,no", [
    ("==0.6.3", ["0.6.3", "0.6.3.post1"], ["0.6.4", "0.6.30"]),
    (">=0.8,<0.9", ["0.8.0", "0.8.5"], ["0.9.0", "0.7.3"]),
    ("~=0.8.0", ["0.8.5"], ["0.9.0"]),
    ("^0.6.3", ["0.6.9"], ["0.7.0"]),
    ("~0.6", ["0.6.9"], ["0.7.0"]),
    ("==0.8.*", ["0.8.5"], ["0.9.0"]),
    ("!=0.9.0", ["0.9.1"], ["0.9.0"]),
])
def test_specifiers(spec, yes, no):
    s = SpecifierSet(spec)
    assert all(s.contains(v) for v in yes)
    assert not any(s.contains(v) for v in no)


def test_ordering():
    assert Version("0.10.0") > Version("0.9.2") > Version("0.9.2rc1") > Version("0.9.2.dev3")
    assert Version("0.8.5.post1") > Version("0.8.5")


def test_exact_and_newest():
    assert SpecifierSet("==0.6.3").exact == "0.6.3" and SpecifierSet(">=0.6").exact is None
    vs = [Version(v) for v in ("0.8.5", "0.9.2", "0.10.2", "0.11.0")]
    assert str(newest_matching(SpecifierSet(">=0.9,<0.11"), vs)) == "0.10.2"


def test_bad_specifier():
    with pytest.raises(InvalidSpecifier):
        SpecifierSet(">=banana")

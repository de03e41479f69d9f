"""Flow 2, second half: hits become a cited, checked answer.

``context`` turns hits into numbered passages, ``budget`` fits them into the prompt (counted by
``tokens``), ``prompts`` writes the messages, ``generate`` streams them through ``llm``, and
``attribution`` with ``tables`` checks each statement of the answer against the passages.
"""

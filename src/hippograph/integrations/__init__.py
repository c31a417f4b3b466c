"""Hippograph inside agent frameworks, through the Python client only: LangChain
(``hippograph.integrations.langchain``, extra ``langchain``) and LlamaIndex
(``hippograph.integrations.llamaindex``, extra ``llamaindex``)."""

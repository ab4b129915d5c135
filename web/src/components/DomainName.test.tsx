import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { DomainName } from './DomainName'

describe('DomainName', () => {
  it('may break before each dot, and keeps the text whole', () => {
    const { container } = render(<DomainName>averyveryverylongname.biz.ee</DomainName>)
    expect(container.textContent).toBe('averyveryverylongname.biz.ee')
    const span = container.firstElementChild!
    expect(span.querySelectorAll('wbr')).toHaveLength(2)
    // A break opportunity sits right before each dot, none inside a label.
    expect(span.innerHTML).toBe('averyveryverylongname<wbr>.biz<wbr>.ee')
  })
})

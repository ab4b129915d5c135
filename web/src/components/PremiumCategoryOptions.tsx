import { capitalise, usePremiumCategories } from '@/lib/catalog'

/** The premium categories (the server's) as the options of a select, named as people read them. */
export function PremiumCategoryOptions() {
  const categories = usePremiumCategories()
  return (
    <>
      {categories.map((category) => (
        <option key={category} value={category}>
          {capitalise(category)}
        </option>
      ))}
    </>
  )
}
